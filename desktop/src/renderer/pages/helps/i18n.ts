import { registerBundles } from '../../kit/i18n';

registerBundles({
  'pt-BR': {
    helpsPage: {
      title: 'Ajuda ({{count}})',
      empty: 'Nenhum vídeo de ajuda cadastrado.',
      close: 'Fechar',
      play: 'Assistir: {{title}}',
    },
  },
  en: {
    helpsPage: {
      title: 'Help ({{count}})',
      empty: 'No help videos yet.',
      close: 'Close',
      play: 'Watch: {{title}}',
    },
  },
  es: {
    helpsPage: {
      title: 'Ayuda ({{count}})',
      empty: 'No hay videos de ayuda.',
      close: 'Cerrar',
      play: 'Ver: {{title}}',
    },
  },
});
