import { registerBundles } from '../../kit/i18n';

registerBundles({
  'pt-BR': {
    quickMessages: {
      title: 'Respostas rápidas',
      add: 'Adicionar',
      shortcode: 'Atalho',
      media: 'Nome da mídia',
      noMedia: 'Sem anexo',
      geral: 'Global',
      saved: 'Resposta rápida salva com sucesso.',
      deleted: 'Resposta rápida excluída com sucesso.',
      deleteTitle: 'Excluir a resposta {{name}}?',
      dialog: {
        addTitle: 'Adicionar resposta rápida',
        editTitle: 'Editar resposta rápida',
        shortcode: 'Atalho',
        message: 'Resposta',
        geral: 'Global (toda a empresa)',
      },
    },
  },
  en: {
    quickMessages: {
      title: 'Quick replies',
      add: 'Add',
      shortcode: 'Shortcut',
      media: 'Media name',
      noMedia: 'No attachment',
      geral: 'Global',
      saved: 'Quick reply saved successfully.',
      deleted: 'Quick reply deleted successfully.',
      deleteTitle: 'Delete the reply {{name}}?',
      dialog: {
        addTitle: 'Add quick reply',
        editTitle: 'Edit quick reply',
        shortcode: 'Shortcut',
        message: 'Reply',
        geral: 'Global (whole company)',
      },
    },
  },
  es: {
    quickMessages: {
      title: 'Respuestas rápidas',
      add: 'Agregar',
      shortcode: 'Atajo',
      media: 'Nombre del archivo',
      noMedia: 'Sin adjunto',
      geral: 'Global',
      saved: 'Respuesta rápida guardada con éxito.',
      deleted: 'Respuesta rápida eliminada con éxito.',
      deleteTitle: '¿Eliminar la respuesta {{name}}?',
      dialog: {
        addTitle: 'Agregar respuesta rápida',
        editTitle: 'Editar respuesta rápida',
        shortcode: 'Atajo',
        message: 'Respuesta',
        geral: 'Global (toda la empresa)',
      },
    },
  },
});
