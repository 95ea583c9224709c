import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { allEndpoints, openApiPath } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocument } from '../src/http/openapi.js';
import { startTestServer, type TestServer } from './harness.js';

const committed = new URL('../../docs/openapi.json', import.meta.url);
type Operation = {
  security: unknown[];
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, unknown> }>;
  'x-plan-flag'?: string;
  tags: string[];
};

describe('docs/openapi.json (issue 12 item 2)', () => {
  const document = apiDocument();

  it('is the document of the current route table (run `npm run openapi` when this fails)', () => {
    const onDisk: unknown = JSON.parse(readFileSync(committed, 'utf8'));
    expect(onDisk).toEqual(document);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has one operation per endpoint, with its parameters, body, answer and security', () => {
    const paths = document.paths as Record<string, Record<string, Operation>>;
    const endpoints = allEndpoints();
    const operations = Object.values(paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(endpoints.length);
    for (const { name, endpoint: e } of endpoints) {
      const op = paths[openApiPath(e.path)]?.[e.method];
      expect(op, name).toBeDefined();
      expect(op!.tags).toEqual([e.tag]);
      expect(op!.security, name).toEqual((e.access ?? 'user') === 'public' ? [] : [{ bearer: [] }]);
      for (const param of e.path.match(/:\w+/g) ?? []) {
        expect(op!.parameters, name).toContainEqual(
          expect.objectContaining({ name: param.slice(1), in: 'path', required: true }),
        );
      }
      expect(!!op!.requestBody, name).toBe(!!e.body);
      const status = String(e.status ?? (e.response === undefined ? 204 : 200));
      expect(op!.responses[status], name).toBeDefined();
      if (e.response && typeof e.response !== 'string') {
        expect(op!.responses[status]!.content?.['application/json'], name).toBeDefined();
      }
      expect(op!['x-plan-flag']).toBe(e.plan);
    }
  });

  it('documents the query of a page and a required body field', () => {
    const paths = document.paths as Record<string, Record<string, Operation>>;
    const list = paths['/users']!.get!;
    expect(list.parameters.map((p) => `${p.in}:${p.name}`)).toEqual([
      'query:searchParam',
      'query:pageNumber',
    ]);
    const login = paths['/auth/login']!.post! as Operation & {
      requestBody: { content: { 'application/json': { schema: { required: string[] } } } };
    };
    expect(login.requestBody.content['application/json'].schema.required).toEqual([
      'email',
      'password',
    ]);
  });
});

describe('/api-docs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('answers the page, its files from our origin, and the document', async () => {
    const page = await server.request<string>('GET', '/api-docs', {
      headers: { accept: 'text/html' },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    // No inline script and nothing from another origin.
    expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<]/);
    expect(page.body).not.toMatch(/https?:\/\//);
    for (const src of page.body.match(/(?:src|href)="([^"]+)"/g) ?? []) {
      const path = src.replace(/^(src|href)="|"$/g, '');
      const file = await server.request('GET', path);
      expect(file.status, path).toBe(200);
    }
    const spec = await server.request('GET', '/api-docs/openapi.json');
    expect(spec.status).toBe(200);
    expect(spec.body).toEqual(apiDocument());
    expect((await server.request('GET', '/api-docs/package.json')).status).toBe(400);
    expect((await server.request('GET', '/api-docs/..%2Fpackage.json')).status).toBe(400);
  });
});
