import i18next from 'i18next';

type Bundle = Record<string, unknown>;
export interface Bundles {
  'pt-BR': Bundle;
  en: Bundle;
  es: Bundle;
}

/**
 * Each admin page keeps its texts next to it and adds them when its module loads, so the shared
 * i18n resources stay the shell's. Added again after init when the module loads first (tests).
 */
export function registerBundles(bundles: Bundles): void {
  const add = () => {
    for (const [lang, bundle] of Object.entries(bundles)) {
      i18next.addResourceBundle(lang, 'translation', bundle, true, false);
    }
  };
  if (i18next.isInitialized) add();
  else i18next.on('initialized', add);
}

/** Texts every admin page shares (admin §8). */
registerBundles({
  'pt-BR': {
    admin: {
      actions: 'Ações',
      add: 'Adicionar',
      search: 'Pesquisar',
      confirmDelete: 'Deseja realmente excluir esse registro?',
      deleteTitle: 'Excluir registro',
      success: 'Operação realizada com sucesso!',
      failed: 'Não foi possível realizar a operação',
      loadFailed: 'Não foi possível carregar a lista de registros',
      loading: 'Carregando...',
      none: 'Nenhum',
      yes: 'Sim',
      no: 'Não',
      weekday: 'Dia da semana',
      startTime: 'Início',
      endTime: 'Fim',
      hhmm: 'Use o formato HH:MM',
      schedulesSaved: 'Horários atualizados com sucesso.',
      attach: 'Anexar arquivo',
      removeAttachment: 'Remover anexo',
      color: 'Cor',
      palette: 'Escolher cor',
      validation: { required: 'Obrigatório', tooShort: 'Mensagem muito curta' },
    },
  },
  en: {
    admin: {
      actions: 'Actions',
      add: 'Add',
      search: 'Search',
      confirmDelete: 'Do you really want to delete this record?',
      deleteTitle: 'Delete record',
      success: 'Operation completed successfully!',
      failed: 'The operation could not be completed',
      loadFailed: 'The list of records could not be loaded',
      loading: 'Loading...',
      none: 'None',
      yes: 'Yes',
      no: 'No',
      weekday: 'Weekday',
      startTime: 'Start',
      endTime: 'End',
      hhmm: 'Use the HH:MM format',
      schedulesSaved: 'Schedules updated successfully.',
      attach: 'Attach file',
      removeAttachment: 'Remove attachment',
      color: 'Colour',
      palette: 'Pick a colour',
      validation: { required: 'Required', tooShort: 'Message too short' },
    },
  },
  es: {
    admin: {
      actions: 'Acciones',
      add: 'Agregar',
      search: 'Buscar',
      confirmDelete: '¿Realmente desea eliminar este registro?',
      deleteTitle: 'Eliminar registro',
      success: '¡Operación realizada con éxito!',
      failed: 'No fue posible realizar la operación',
      loadFailed: 'No fue posible cargar la lista de registros',
      loading: 'Cargando...',
      none: 'Ninguno',
      yes: 'Sí',
      no: 'No',
      weekday: 'Día de la semana',
      startTime: 'Inicio',
      endTime: 'Fin',
      hhmm: 'Use el formato HH:MM',
      schedulesSaved: 'Horarios actualizados con éxito.',
      attach: 'Adjuntar archivo',
      removeAttachment: 'Quitar adjunto',
      color: 'Color',
      palette: 'Elegir color',
      validation: { required: 'Obligatorio', tooShort: 'Mensaje muy corto' },
    },
  },
});
