// `npm run openapi`: writes docs/openapi.json from the route table (a test fails when it is stale).
import { writeFileSync } from 'node:fs';
import { apiDocument } from '../src/http/openapi.js';

const target = new URL('../../docs/openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(apiDocument(), null, 2)}\n`);
console.warn(`wrote ${target.pathname}`);
