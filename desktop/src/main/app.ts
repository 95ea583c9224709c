import {
  BrowserWindow,
  Menu,
  Notification,
  Tray,
  app,
  ipcMain,
  nativeImage,
  protocol,
  safeStorage,
  screen,
  session as electronSession,
  shell,
} from 'electron';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import nodeNotifier from 'node-notifier';
import { PUSH, type PushChannel } from '../preload/channels.js';
import { evictMedia } from './cache/media.js';
import { openCache } from './cache/open.js';
import { createHandlers } from './ipc/handlers.js';
import { MEDIA_PREFIX, serveMedia } from './media-cache.js';
import { registerIpc } from './ipc/register.js';
import { ApiSession, type SessionUser } from './net/session.js';
import { createNotifier, trayLabel } from './notifier.js';
import {
  prefsFile,
  readText,
  safeStorageVault,
  setLinuxAutostart,
  writeText,
} from './persistence.js';
import {
  APP_ORIGIN,
  APP_SCHEME,
  allowPermission,
  contentSecurityPolicy,
  isAllowedExternal,
  isAppUrl,
  mimeOf,
  resolveAppFile,
} from './security.js';
import { startSyncService, type SyncService } from './service.js';
import { parseWindowState, restoreBounds, type WindowState } from './window-state.js';

/** The Electron shell: window, protocol, security, tray, notifications, IPC, sync service. */

const SERVER_URL = (process.env.ATENDE_SERVER_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const WEB_ROOT = process.env.ATENDE_WEB_ROOT ?? join(__dirname, '..', 'web');
const PRELOAD = join(__dirname, '..', 'preload', 'preload.cjs');
/** The media cache's size bound; the oldest closed tickets' files go first. */
const MEDIA_CACHE_BYTES = 512 * 1024 * 1024;

if (process.env.ATENDE_USER_DATA) app.setPath('userData', process.env.ATENDE_USER_DATA);
const userData = () => app.getPath('userData');

protocol.registerSchemesAsPrivileged([
  {
    scheme: APP_SCHEME,
    privileges: {
      standard: true,
      secure: true,
      supportFetchAPI: true,
      stream: true,
      corsEnabled: true,
    },
  },
]);

let window: BrowserWindow | null = null;
let tray: Tray | null = null;
let service: SyncService | null = null;
let mediaDir = '';
let viewing: { ticketId: number | null; focused: boolean } = { ticketId: null, focused: false };

function push(channel: PushChannel, payload: unknown): void {
  if (window && !window.isDestroyed()) window.webContents.send(channel, payload);
}

let quitting = false;

function showWindow(): void {
  if (!window) createWindow();
  if (!window) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

function applyAutoLaunch(enabled: boolean): void {
  if (process.platform === 'linux') {
    const exec = process.env.APPIMAGE ? [process.env.APPIMAGE] : [process.execPath];
    setLinuxAutostart(app.getPath('appData'), enabled, [...exec, '--hidden']);
  } else {
    app.setLoginItemSettings({ openAtLogin: enabled, args: ['--hidden'] });
  }
}

const prefs = prefsFile(join(userData(), 'prefs.json'), (p) => applyAutoLaunch(p.autoLaunch));
const apiSession = new ApiSession(
  SERVER_URL,
  safeStorageVault(safeStorage, join(userData(), 'session.bin')),
);
const notifier = createNotifier({
  electron: {
    isSupported: () => Notification.isSupported(),
    create: (options) => new Notification(options),
  },
  fallback: nodeNotifier,
  onClick: (ticketId, tag) => {
    showWindow();
    push(PUSH.notificationClick, { ticketId: ticketId ?? null, tag });
  },
});

function setUnread(count: number): void {
  const label = trayLabel(count);
  tray?.setToolTip(label.tooltip);
  if (process.platform !== 'win32') app.setBadgeCount(count);
  tray?.setTitle(label.badge);
}

/** The cache belongs to one agent of one company: another account gets its own file. */
let serviceOf: SessionUser | null = null;

function startFor(user: SessionUser | null): void {
  // The same agent signing in again (or the first refresh after an offline start) keeps it going.
  if (service && user && serviceOf?.id === user.id && serviceOf.companyId === user.companyId)
    return;
  service?.stop();
  service = null;
  serviceOf = user;
  if (!user) return;
  writeText(join(userData(), 'last-user.json'), JSON.stringify(user));
  const db = openCache(join(userData(), `cache-${user.companyId}-${user.id}.sqlite`));
  mediaDir = join(userData(), `media-${user.companyId}-${user.id}`);
  for (const file of evictMedia(db, MEDIA_CACHE_BYTES)) void rm(file, { force: true });
  service = startSyncService({
    session: apiSession,
    db,
    user,
    push,
    showNotification: (plan) =>
      notifier.show({ ...plan, body: plan.summaryOf ? `+${plan.summaryOf}` : plan.body }),
    setUnread,
    prefs: () => prefs.get(),
    view: () => viewing,
    onError: (error) => console.warn('sync:', error),
  });
}

function lastUser(): SessionUser | null {
  try {
    return JSON.parse(readText(join(userData(), 'last-user.json')) ?? 'null') as SessionUser | null;
  } catch {
    return null;
  }
}

function hardenSessions(): void {
  const ses = electronSession.defaultSession;
  // Only the app's own page may hold a permission, and only the microphone and notifications.
  ses.setPermissionRequestHandler((contents, permission, callback, details) =>
    callback(
      isAppUrl(contents.getURL()) &&
        allowPermission(permission, details as { mediaTypes?: string[] }),
    ),
  );
  ses.setPermissionCheckHandler((_contents, permission, origin, details) => {
    if (origin !== APP_ORIGIN && !isAppUrl(origin)) return false;
    const mediaType = (details as { mediaType?: string }).mediaType;
    return allowPermission(permission, { mediaTypes: mediaType ? [mediaType] : [] });
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (isAllowedExternal(url, SERVER_URL)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
  protocol.handle(APP_SCHEME, async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith(MEDIA_PREFIX)) {
      if (!service) return new Response('Not found', { status: 404 });
      const media = await serveMedia(
        { db: service.store.db, dir: mediaDir, api: apiSession, maxBytes: MEDIA_CACHE_BYTES },
        decodeURIComponent(pathname.slice(MEDIA_PREFIX.length)),
      ).catch(() => ({ status: 502, data: undefined, contentType: undefined }));
      if (!media.data) return new Response(null, { status: media.status });
      return new Response(new Uint8Array(media.data), {
        status: 200,
        headers: { 'Content-Type': media.contentType ?? 'application/octet-stream' },
      });
    }
    const file = resolveAppFile(WEB_ROOT, request.url);
    if (!file) return new Response('Not found', { status: 404 });
    try {
      const data = await readFile(file);
      const headers: Record<string, string> = { 'Content-Type': mimeOf(file) };
      if (file.endsWith('.html'))
        headers['Content-Security-Policy'] = contentSecurityPolicy(SERVER_URL);
      return new Response(new Uint8Array(data), { headers });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}

function createWindow(): void {
  const stateFile = join(userData(), 'window-state.json');
  const areas = screen.getAllDisplays().map((d) => d.workArea);
  const primary = screen.getPrimaryDisplay().workArea;
  const state = restoreBounds(parseWindowState(readText(stateFile)), [primary, ...areas]);
  window = new BrowserWindow({
    x: state.x,
    y: state.y,
    width: state.width,
    height: state.height,
    minWidth: 360,
    minHeight: 480,
    show: false,
    title: 'Atende',
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: true,
      // The preload maps server paths to URLs (resolveUrl) without asking main each time.
      additionalArguments: [`--atende-server=${SERVER_URL}`],
    },
  });
  if (state.maximized) window.maximize();
  const save = () => {
    if (!window || window.isDestroyed()) return;
    const saved: WindowState = { ...window.getNormalBounds(), maximized: window.isMaximized() };
    writeText(stateFile, JSON.stringify(saved));
  };
  // Closing hides the window to the tray (the agent stays reachable); quitting really closes.
  window.on('close', (event) => {
    save();
    if (!quitting && tray) {
      event.preventDefault();
      window?.hide();
    }
  });
  window.on('focus', () => (viewing = { ...viewing, focused: true }));
  window.on('blur', () => (viewing = { ...viewing, focused: false }));
  window.once('ready-to-show', () => {
    if (!process.argv.includes('--hidden')) window?.show();
  });
  window.on('closed', () => (window = null));
  void window.loadURL(`${APP_ORIGIN}/index.html`);
}

function createTray(): void {
  const icon = nativeImage.createFromPath(join(__dirname, 'tray.png'));
  tray = new Tray(icon.isEmpty() ? nativeImage.createEmpty() : icon);
  tray.setToolTip('Atende');
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Atende', click: showWindow },
      { type: 'separator' },
      { role: 'quit' },
    ]),
  );
  tray.on('click', showWindow);
}

/** Standard menus (copy and paste need them on macOS); developer tools only unpackaged. */
function createMenu(): void {
  const template: Electron.MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
      ],
    },
    { role: 'windowMenu' },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function registerHandlers(): void {
  registerIpc(
    ipcMain,
    createHandlers({
      api: apiSession,
      get db() {
        if (!service) throw new Error('ERR_NOT_SIGNED_IN');
        return service.store.db;
      },
      get outbox() {
        if (!service) throw new Error('ERR_NOT_SIGNED_IN');
        return service.outbox;
      },
      get outboxStore() {
        if (!service) throw new Error('ERR_NOT_SIGNED_IN');
        return service.store;
      },
      realtime: {
        connect: () => service?.link.connect(),
        emit: (event, args) => service?.link.socket.emit(event, ...args),
        reconnect: () => service?.link.connect(),
        // The socket also feeds the cache; the renderer closing its view of it changes nothing.
        close: () => undefined,
      },
      notify: (n) => notifier.show({ title: n.title, body: n.body, tag: n.tag ?? 'app' }),
      viewTicket: (ticketId, focused) => void (viewing = { ticketId, focused }),
      openExternal: (url) => shell.openExternal(url),
      serverOrigin: SERVER_URL,
      prefs,
      appInfo: () => ({ version: app.getVersion(), platform: process.platform }),
    }),
    (channel, error) => console.warn(`ipc ${channel}:`, error),
  );
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', showWindow);
  app.on('window-all-closed', () => {
    // The tray keeps the agent reachable; quitting is explicit (tray menu, Cmd+Q).
    if (process.platform !== 'darwin' && !tray) app.quit();
  });
  app.on('before-quit', () => {
    quitting = true;
    service?.stop();
  });
  void app.whenReady().then(() => {
    hardenSessions();
    registerHandlers();
    apiSession.onUser(startFor);
    // Offline start: the last agent's cache opens at once; the socket signs in when it can.
    if (apiSession.signedIn) startFor(lastUser());
    createMenu();
    createWindow();
    createTray();
    app.on('activate', () => (window ? showWindow() : createWindow()));
  });
}
