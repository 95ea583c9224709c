import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { idParams } from './common.js';
import { endpoint } from './endpoint.js';
import { openApiDocument } from './openapi.js';

const table = {
  things: {
    upload: endpoint({
      method: 'post',
      path: '/things/:id/media-upload',
      summary: 'Attaches a file',
      tag: 'things',
      access: 'admin',
      params: idParams,
      body: z.object({ caption: z.string().optional() }),
      multipart: true,
      plan: 'useKanban',
    }),
    download: endpoint({
      method: 'get',
      path: '/things/:id/file',
      summary: 'The file',
      tag: 'things',
      access: 'public',
      params: idParams,
      query: z.object({ inline: z.enum(['0', '1']).optional(), v: z.string() }),
      response: 'file',
    }),
    show: endpoint({
      method: 'get',
      path: '/things/:id',
      summary: 'One thing',
      tag: 'things',
      params: idParams,
      response: z.object({ id: z.number().int(), at: z.string() }),
    }),
  },
};

describe('openApiDocument', () => {
  const doc = openApiDocument(table, { title: 't', version: '1' }) as any;

  it('writes express paths as OpenAPI templates, one operation per endpoint', () => {
    expect(Object.keys(doc.paths)).toEqual([
      '/things/{id}/media-upload',
      '/things/{id}/file',
      '/things/{id}',
    ]);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.tags).toEqual([{ name: 'things' }]);
  });

  it('documents a multipart body, a 204 without content, the plan flag and its 403', () => {
    const op = doc.paths['/things/{id}/media-upload'].post;
    expect(Object.keys(op.requestBody.content)).toEqual(['multipart/form-data']);
    expect(op.responses['204']).toEqual({ description: 'Attaches a file' });
    expect(op['x-plan-flag']).toBe('useKanban');
    expect(op['x-access']).toBe('admin');
    expect(op.responses['403'].description).toContain('useKanban');
    expect(op.security).toEqual([{ bearer: [] }]);
    expect(op.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    ]);
  });

  it('documents query parameters, a file answer and no security for public endpoints', () => {
    const op = doc.paths['/things/{id}/file'].get;
    expect(op.security).toEqual([]);
    expect(op.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
      ['id', 'path', true],
      ['inline', 'query', false],
      ['v', 'query', true],
    ]);
    expect(op.responses['200'].content).toEqual({
      'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
    });
  });

  it('leaves answers open to fields it does not name', () => {
    const schema =
      doc.paths['/things/{id}'].get.responses['200'].content['application/json'].schema;
    expect(schema.required).toEqual(['id', 'at']);
    expect(schema).not.toHaveProperty('additionalProperties');
  });

  it('refuses a method and path declared twice', () => {
    const twice = { a: table.things, b: { again: table.things.show } };
    expect(() => openApiDocument(twice, { title: 't', version: '1' })).toThrow(/declared twice/);
  });
});
