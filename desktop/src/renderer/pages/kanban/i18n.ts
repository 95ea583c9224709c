import { registerBundles } from '../../kit/i18n';

registerBundles({
  'pt-BR': {
    kanban: {
      title: 'Kanban',
      open: 'Em aberto',
      viewTicket: 'Ver Ticket',
      added: 'Ticket Tag Adicionado com Sucesso!',
      removed: 'Ticket Tag Removido!',
      noPlan:
        'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
      empty: 'Nenhum ticket',
      count: '{{count}} tickets',
      dragHint:
        'Para mover um cartão pelo teclado: foque o cartão, tecle espaço, use as setas e tecle espaço de novo.',
      noMessage: 'Sem mensagens',
    },
  },
  en: {
    kanban: {
      title: 'Kanban',
      open: 'Open',
      viewTicket: 'View ticket',
      added: 'Ticket tag added successfully!',
      removed: 'Ticket tag removed!',
      noPlan: 'This company is not allowed to open this page! Redirecting you.',
      empty: 'No tickets',
      count: '{{count}} tickets',
      dragHint:
        'To move a card with the keyboard: focus it, press space, use the arrow keys and press space again.',
      noMessage: 'No messages',
    },
  },
  es: {
    kanban: {
      title: 'Kanban',
      open: 'Abiertos',
      viewTicket: 'Ver ticket',
      added: '¡Etiqueta del ticket agregada con éxito!',
      removed: '¡Etiqueta del ticket eliminada!',
      noPlan: '¡Esta empresa no tiene permiso para acceder a esta página! Redirigiendo.',
      empty: 'Ningún ticket',
      count: '{{count}} tickets',
      dragHint:
        'Para mover una tarjeta con el teclado: enfóquela, pulse espacio, use las flechas y pulse espacio otra vez.',
      noMessage: 'Sin mensajes',
    },
  },
});
