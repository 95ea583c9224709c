import { registerBundles } from '../../kit/i18n';

registerBundles({
  'pt-BR': {
    tags: {
      title: 'Tags',
      add: 'Nova Tag',
      name: 'Nome',
      tickets: 'Tickets Tagdos',
      saved: 'Tag salva com sucesso.',
      deleted: 'Tag excluída com sucesso.',
      deleteTitle: 'Excluir a tag {{name}}?',
      dialog: {
        addTitle: 'Adicionar tag',
        editTitle: 'Editar tag',
        name: 'Nome',
        color: 'Cor',
        kanban: 'Kanban',
      },
    },
  },
  en: {
    tags: {
      title: 'Tags',
      add: 'New tag',
      name: 'Name',
      tickets: 'Tagged tickets',
      saved: 'Tag saved successfully.',
      deleted: 'Tag deleted successfully.',
      deleteTitle: 'Delete the tag {{name}}?',
      dialog: {
        addTitle: 'Add tag',
        editTitle: 'Edit tag',
        name: 'Name',
        color: 'Colour',
        kanban: 'Kanban',
      },
    },
  },
  es: {
    tags: {
      title: 'Etiquetas',
      add: 'Nueva etiqueta',
      name: 'Nombre',
      tickets: 'Tickets etiquetados',
      saved: 'Etiqueta guardada con éxito.',
      deleted: 'Etiqueta eliminada con éxito.',
      deleteTitle: '¿Eliminar la etiqueta {{name}}?',
      dialog: {
        addTitle: 'Agregar etiqueta',
        editTitle: 'Editar etiqueta',
        name: 'Nombre',
        color: 'Color',
        kanban: 'Kanban',
      },
    },
  },
});
