import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import cookieParser from 'cookie-parser';
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import client from 'prom-client';
import type { AppContext } from '../context.js';
import { modules } from '../modules/index.js';
import { routersOf } from '../modules/manifest.js';
import { AppError, errorMiddleware } from './errors.js';
import { metrics, systemRoutes } from './system.routes.js';

export { metrics };
const httpDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metrics],
});

const measure: RequestHandler = (req, res, next) => {
  const end = httpDuration.startTimer();
  res.on('finish', () => {
    const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
    end({ method: req.method, route, status: res.statusCode });
  });
  next();
};

/** A module's routes (`routers` in its manifest, `modules/index.ts`). */
export type RouterFactory = (app: AppContext) => express.Router;

/** A CSP source for this request's own host over a websocket scheme (`ws://host:port`). */
const sameHostSocket =
  (scheme: 'ws' | 'wss') =>
  (req: IncomingMessage): string => {
    const host = req.headers.host ?? '';
    // A host header is `name[:port]`; anything else gets no websocket source at all.
    return /^[a-z0-9.[\]:-]+$/i.test(host) ? `${scheme}://${host}` : "'self'";
  };

/**
 * The web build shares the origin with the API, and some paths are both (/tickets): a browser
 * navigation (Accept: text/html) gets the app, anything else the API.
 */
function webApp(dir: string): RequestHandler[] {
  const index = path.join(dir, 'index.html');
  const fallback: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' || req.accepts(['json', 'html']) !== 'html') return next();
    res.sendFile(index);
  };
  return [express.static(dir, { index: false, maxAge: '1h' }), fallback];
}

export function createHttpApp(app: AppContext): Express {
  const server = express();
  server.disable('x-powered-by');
  server.set('trust proxy', 'loopback');
  server.use(measure);
  server.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          // The /helps page shows YouTube thumbnails and plays videos in the privacy-enhanced
          // (no-cookie) player; nothing else from outside (issue 15, docs/decisions.md).
          'img-src': ["'self'", 'data:', 'blob:', 'https://img.youtube.com'],
          'frame-src': ['https://www.youtube-nocookie.com'],
          'media-src': ["'self'", 'data:', 'blob:'],
          // Our own origin only: 'self' plus this host's websocket (older browsers do not
          // count ws: as 'self'). Never any other ws:/wss: host.
          'connect-src': ["'self'", sameHostSocket('ws'), sameHostSocket('wss')],
        },
      },
    }),
  );
  if (app.config.CORS_ORIGIN) {
    const origin = app.config.CORS_ORIGIN;
    server.use((req, res, next) => {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type');
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE, OPTIONS');
      if (req.method === 'OPTIONS') res.status(204).end();
      else next();
    });
  }
  server.use(express.json({ limit: app.config.JSON_LIMIT }));
  server.use(cookieParser());

  // Before the web build: `/api-docs` is a page of the server, not of the web app.
  server.use(systemRoutes(app));
  const webDir = app.config.WEB_DIR;
  if (webDir && existsSync(path.join(webDir, 'index.html'))) server.use(...webApp(webDir));

  for (const factory of routersOf(modules)) server.use(factory(app));

  server.use((_req, _res, next) => next(new AppError('ERR_NOT_FOUND')));
  server.use(errorMiddleware);
  return server;
}
