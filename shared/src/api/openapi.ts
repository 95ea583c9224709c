/**
 * The OpenAPI 3.1 document of the route table: pure (the table in, a JSON object out), so
 * `npm run openapi` writes it to docs/openapi.json, a test checks that file is current, and the
 * server answers it at `/api-docs/openapi.json`. Request schemas are converted as the client
 * sends them (zod `io: 'input'`), answers as the client receives them (`io: 'output'`).
 */
import { z } from 'zod';
import { openApiPath, type Endpoint, type RawAnswer } from './endpoint.js';

type Json = Record<string, unknown>;
type Table = Record<string, Record<string, Endpoint>>;

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

/**
 * An answer's object schema is not strict (a client ignores fields it does not know): zod marks
 * an output object `additionalProperties: false` unless told otherwise, so that mark is dropped
 * for plain objects (a strict object keeps it).
 */
const openAnswers = (ctx: { zodSchema: unknown; jsonSchema: Json }) => {
  const def = (ctx.zodSchema as { _zod: { def: { type: string; catchall?: unknown } } })._zod.def;
  if (
    def.type === 'object' &&
    def.catchall === undefined &&
    ctx.jsonSchema.additionalProperties === false
  )
    delete ctx.jsonSchema.additionalProperties;
};

/** The `$defs` a recursive schema (the queue option tree) refers to, kept as components. */
type Defs = Record<string, Json>;
const toComponents = (json: Json): Json =>
  JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;

const toSchema = (schema: z.ZodType, io: 'input' | 'output', defs?: Defs): Json => {
  const {
    $schema: _dialect,
    $defs,
    ...json
  } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    ...(io === 'output' && { override: openAnswers }),
  }) as Json;
  if (!$defs) return json;
  if (!defs) throw new Error('a recursive schema is only supported in an answer or a body');
  for (const [name, def] of Object.entries($defs as Defs)) defs[name] = toComponents(def);
  return toComponents(json);
};

/** What an answer that is not JSON carries. */
const RAW_CONTENT: Record<RawAnswer, Json> = {
  file: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  html: { 'text/html': { schema: { type: 'string' } } },
  text: { 'text/plain': { schema: { type: 'string' } } },
};

/** `path` or `query` parameters from an object schema's properties. */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' && { description }),
      schema: rest,
    };
  });
}

function operation(group: string, name: string, e: Endpoint, defs: Defs): Json {
  const access = e.access ?? 'user';
  const status = e.status ?? (e.response === undefined ? 204 : 200);
  const success: Json = { description: e.summary };
  if (typeof e.response === 'string') success.content = RAW_CONTENT[e.response];
  else if (e.response)
    success.content = { 'application/json': { schema: toSchema(e.response, 'output', defs) } };
  const op: Json = {
    operationId: `${group}.${name}`,
    summary: e.summary,
    tags: [e.tag],
    'x-access': access,
    ...(e.plan && { 'x-plan-flag': e.plan }),
    security: access === 'public' ? [] : [{ bearer: [] }],
    parameters: [...parameters(e.params, 'path'), ...parameters(e.query, 'query')],
  };
  if (e.body) {
    const type = e.multipart ? 'multipart/form-data' : 'application/json';
    const schema = toSchema(e.body, 'input', defs);
    op.requestBody = { required: true, content: { [type]: { schema } } };
  }
  op.responses = {
    [String(status)]: success,
    ...(e.plan && {
      '403': {
        description: `ERR_PLAN_FEATURE_DISABLED: the company's plan lacks ${e.plan}`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    }),
    default: {
      description: 'An error: its ERR_* code and message (core §8)',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
  };
  return op;
}

/** The OpenAPI 3.1 document of `table` (paths in table order, one operation per endpoint). */
export function openApiDocument(table: Table, info: OpenApiInfo): Json {
  const paths: Record<string, Json> = {};
  const tags: string[] = [];
  const defs: Defs = {};
  for (const [group, endpoints] of Object.entries(table)) {
    for (const [name, e] of Object.entries(endpoints)) {
      const path = openApiPath(e.path);
      const item = (paths[path] ??= {});
      if (item[e.method]) throw new Error(`${e.method.toUpperCase()} ${e.path} is declared twice`);
      item[e.method] = operation(group, name, e, defs);
      if (!tags.includes(e.tag)) tags.push(e.tag);
    }
  }
  return {
    openapi: '3.1.0',
    info,
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The access token of POST /auth/login or /auth/refresh_token',
        },
      },
      schemas: {
        ...defs,
        Error: {
          type: 'object',
          properties: {
            error: { type: 'string', description: 'ERR_* code' },
            message: { type: 'string' },
            details: {},
          },
          required: ['error', 'message'],
        },
      },
    },
  };
}
