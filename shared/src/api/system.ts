import { z } from 'zod';
import { endpoint } from './endpoint.js';

/** Files of the API reference page (`/api-docs/<file>`): our page's script and Swagger UI's. */
export const API_DOCS_ASSETS = [
  'api-docs.js',
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'favicon-32x32.png',
] as const;

/** Health, version, metrics and the API reference: no sign-in. */
export const systemEndpoints = {
  health: endpoint({
    method: 'get',
    path: '/health',
    summary: 'Whether the database and Redis answer (503 naming the failing part)',
    tag: 'system',
    access: 'public',
    response: z.object({
      status: z.enum(['ok', 'error']),
      db: z.enum(['ok', 'down']),
      redis: z.enum(['ok', 'down']),
    }),
  }),
  version: endpoint({
    method: 'get',
    path: '/version',
    summary: "The server's version",
    tag: 'system',
    access: 'public',
    response: z.object({ version: z.string() }),
  }),
  metrics: endpoint({
    method: 'get',
    path: '/metrics',
    summary:
      'Prometheus metrics, with `Authorization: Bearer <METRICS_TOKEN>` (404 without it, or when METRICS_TOKEN is unset)',
    tag: 'system',
    access: 'public',
    response: 'text',
  }),
  apiDocs: endpoint({
    method: 'get',
    path: '/api-docs',
    summary: 'This reference, as a page',
    tag: 'system',
    access: 'public',
    response: 'html',
  }),
  openApi: endpoint({
    method: 'get',
    path: '/api-docs/openapi.json',
    summary: 'The OpenAPI 3.1 document of every endpoint',
    tag: 'system',
    access: 'public',
    response: z.record(z.string(), z.unknown()),
  }),
  apiDocsAsset: endpoint({
    method: 'get',
    path: '/api-docs/:file',
    summary: "The reference page's script and style",
    tag: 'system',
    access: 'public',
    params: z.object({ file: z.enum(API_DOCS_ASSETS) }),
    response: 'file',
  }),
} as const;
