import { openApiDocument, routeTable } from '@atende/shared';
import { VERSION } from '../version.js';

/** The API reference's header: the server's name and version. */
export const API_INFO = {
  title: 'Atende API',
  version: VERSION,
  description:
    'Every HTTP endpoint of the Atende server, generated from the shared route table ' +
    '(shared/src/api). Sign in with POST /auth/login and send its token as `Authorization: ' +
    'Bearer <token>`. Errors answer `{error: ERR_*, message}`. `x-access` names who may call an ' +
    "operation; `x-plan-flag` the company plan's feature it needs.",
};

/** The OpenAPI 3.1 document of the route table (what docs/openapi.json holds). */
export const apiDocument = () => openApiDocument(routeTable, API_INFO);
