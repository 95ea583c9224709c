import { describe, expect, it } from 'vitest';
import { loadTasks, saveTasks, withoutTask, withTask, TODO_STORAGE_KEY } from './todos';

/** A Storage kept in memory (the node project has no localStorage). */
function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, String(v)),
  };
}

const T0 = new Date('2026-01-01T10:00:00Z');
const T1 = new Date('2026-01-02T10:00:00Z');

describe('personal to-do (secondary §2, §5)', () => {
  it.each(['', '   ', '\n\t '])('ignores %j (empty after trim)', (text) => {
    expect(withTask([], text, null, T0)).toEqual([]);
  });

  it('adds trimmed text with createdAt and updatedAt', () => {
    expect(withTask([], '  comprar café ', null, T0)).toEqual([
      { text: 'comprar café', createdAt: T0.toISOString(), updatedAt: T0.toISOString() },
    ]);
  });

  it('edits keep createdAt and move updatedAt; an empty edit changes nothing', () => {
    const one = withTask([], 'a', null, T0);
    const edited = withTask(one, 'b', 0, T1);
    expect(edited).toEqual([
      { text: 'b', createdAt: T0.toISOString(), updatedAt: T1.toISOString() },
    ]);
    expect(withTask(edited, '  ', 0, T1)).toBe(edited);
  });

  it('deletes by position and survives a reload through storage only', () => {
    const tasks = withTask(withTask([], 'a', null, T0), 'b', null, T1);
    const storage = memoryStorage();
    saveTasks(withoutTask(tasks, 0), storage);
    expect(loadTasks(storage).map((t) => t.text)).toEqual(['b']);
    storage.setItem(TODO_STORAGE_KEY, '{broken');
    expect(loadTasks(storage)).toEqual([]);
  });
});
