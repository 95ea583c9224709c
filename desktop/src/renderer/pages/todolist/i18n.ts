import { registerBundles } from '../../kit/i18n';

registerBundles({
  'pt-BR': {
    todolist: {
      title: 'Tarefas',
      input: 'Nova tarefa',
      add: 'Adicionar',
      save: 'Salvar',
      edit: 'Editar',
      delete: 'Excluir',
      empty: 'Nenhuma tarefa.',
      local: 'As tarefas ficam só neste navegador.',
      updated: 'Atualizada em {{date}}',
    },
  },
  en: {
    todolist: {
      title: 'Tasks',
      input: 'New task',
      add: 'Add',
      save: 'Save',
      edit: 'Edit',
      delete: 'Delete',
      empty: 'No tasks.',
      local: 'Tasks are kept in this browser only.',
      updated: 'Updated on {{date}}',
    },
  },
  es: {
    todolist: {
      title: 'Tareas',
      input: 'Nueva tarea',
      add: 'Agregar',
      save: 'Guardar',
      edit: 'Editar',
      delete: 'Eliminar',
      empty: 'Ninguna tarea.',
      local: 'Las tareas quedan solo en este navegador.',
      updated: 'Actualizada el {{date}}',
    },
  },
});
