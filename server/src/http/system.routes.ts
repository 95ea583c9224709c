import { createHash, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Router } from 'express';
import { systemEndpoints as api } from '@atende/shared';
import client from 'prom-client';
import type { AppContext } from '../context.js';
import { VERSION } from '../version.js';
import { AppError } from './errors.js';
import { apiDocument } from './openapi.js';
import { serve } from './route.js';

export const metrics = new client.Registry();
client.collectDefaultMetrics({ register: metrics });

async function health(app: AppContext) {
  const [db, redis] = await Promise.all([
    app.ds.query('SELECT 1').then(
      () => 'ok' as const,
      () => 'down' as const,
    ),
    app.redis.ping().then(
      (r) => (r === 'PONG' ? ('ok' as const) : ('down' as const)),
      () => 'down' as const,
    ),
  ]);
  return {
    status: db === 'ok' && redis === 'ok' ? ('ok' as const) : ('error' as const),
    db,
    redis,
  };
}

function metricsAllowed(token: string | undefined, header: string | undefined): boolean {
  if (!token || !header?.toLowerCase().startsWith('bearer ')) return false;
  const given = createHash('sha256').update(header.slice(7).trim()).digest();
  return timingSafeEqual(given, createHash('sha256').update(token).digest());
}

/** Where swagger-ui-dist's files are (its package folder). */
const swaggerUiDir = path.dirname(
  createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
);

/**
 * The reference page: Swagger UI from our own origin (no CDN), started by a script file of
 * ours (the CSP allows no inline script). `validatorUrl: null` keeps it from calling the public
 * validator: the page works offline.
 */
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Atende API</title>
    <link rel="stylesheet" href="/api-docs/swagger-ui.css" />
    <link rel="icon" type="image/png" href="/api-docs/favicon-32x32.png" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/api-docs/swagger-ui-bundle.js"></script>
    <script src="/api-docs/api-docs.js"></script>
  </body>
</html>
`;
const INITIALIZER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api-docs/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

/** Health, version, metrics and the API reference (`/api-docs`): every one public. */
export function systemRoutes(app: AppContext): Router {
  const router = Router();

  serve(router, app, api.health, async ({ res }) => {
    const state = await health(app);
    if (state.status === 'ok') return state;
    res.status(503).json(state);
    return undefined;
  });

  serve(router, app, api.version, async () => ({ version: VERSION }));

  serve(router, app, api.metrics, async ({ req, res }) => {
    // Only with the METRICS_TOKEN bearer; without METRICS_TOKEN the route does not exist.
    if (!metricsAllowed(app.config.METRICS_TOKEN, req.headers.authorization)) {
      throw new AppError('ERR_NOT_FOUND');
    }
    res.type(metrics.contentType).send(await metrics.metrics());
    return undefined;
  });

  serve(router, app, api.apiDocs, async ({ res }) => {
    res.type('html').setHeader('Cache-Control', 'no-cache').send(PAGE);
    return undefined;
  });

  let document: object | undefined;
  serve(router, app, api.openApi, async () => (document ??= apiDocument()));

  serve(router, app, api.apiDocsAsset, async ({ params, res }) => {
    if (params.file === 'api-docs.js') {
      res.type('js').setHeader('Cache-Control', 'no-cache').send(INITIALIZER);
      return undefined;
    }
    await new Promise<void>((resolve, reject) =>
      res.sendFile(path.join(swaggerUiDir, params.file), { maxAge: '1d' }, (err) =>
        err ? reject(err) : resolve(),
      ),
    );
    return undefined;
  });

  return router;
}
