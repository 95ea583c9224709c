/** Personal tasks (secondary §2 /todolist): kept only in this browser's storage, never sent. */
export interface Task {
  text: string;
  createdAt: string;
  updatedAt: string;
}

export const TODO_STORAGE_KEY = 'tasks';

export function loadTasks(storage: Storage = localStorage): Task[] {
  try {
    const parsed = JSON.parse(storage.getItem(TODO_STORAGE_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed)
      ? parsed.filter(
          (t): t is Task =>
            typeof (t as Task)?.text === 'string' &&
            typeof (t as Task).createdAt === 'string' &&
            typeof (t as Task).updatedAt === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

export function saveTasks(tasks: Task[], storage: Storage = localStorage): void {
  storage.setItem(TODO_STORAGE_KEY, JSON.stringify(tasks));
}

/** Adds a task, or changes the one at `editing`; empty text after trimming is ignored. */
export function withTask(tasks: Task[], text: string, editing: number | null, now: Date): Task[] {
  const clean = text.trim();
  if (!clean) return tasks;
  const at = now.toISOString();
  if (editing !== null && tasks[editing]) {
    return tasks.map((t, i) => (i === editing ? { ...t, text: clean, updatedAt: at } : t));
  }
  return [...tasks, { text: clean, createdAt: at, updatedAt: at }];
}

export const withoutTask = (tasks: Task[], index: number): Task[] =>
  tasks.filter((_, i) => i !== index);
