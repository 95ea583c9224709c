/** Stands in for `electron` under vitest: tests must never load the real package. */
const unavailable = (): never => {
  throw new Error('electron is not available in tests; inject a fake instead');
};

export const app = { getPath: unavailable, getVersion: () => '0.0.0-test', on: () => undefined };
export const ipcMain = { handle: () => undefined, on: () => undefined };
export const ipcRenderer = { invoke: unavailable, on: () => undefined };
export const contextBridge = { exposeInMainWorld: () => undefined };
export const BrowserWindow = unavailable;
export const Notification = unavailable;
export default { app, ipcMain, ipcRenderer, contextBridge, BrowserWindow, Notification };
