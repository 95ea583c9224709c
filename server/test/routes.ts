import { referenceRegistry, type ReferenceKind } from '@atende/shared';
import type { Express } from 'express';
import type { z } from 'zod';
import { createHttpApp } from '../src/http/app.js';
import type { AppContext } from '../src/context.js';
import type { Spec } from '../src/http/route.js';

/** A route as express holds it: method, path and, for route() handlers, its spec. */
export interface ListedRoute {
  method: string;
  path: string;
  spec: Spec | undefined;
  /** Express handlers before route() (multer for uploads). */
  middlewares: number;
}

interface Layer {
  route?: { path: string; methods: Record<string, boolean>; stack: { handle: unknown }[] };
  handle?: { stack?: Layer[] };
}

/** Every route of the HTTP app, read from express's router stack (nothing kept by hand). */
export function listRoutes(app: AppContext): ListedRoute[] {
  const server = createHttpApp(app) as Express & { router: { stack: Layer[] } };
  const out: ListedRoute[] = [];
  const visit = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const handles = layer.route.stack.map((l) => l.handle as { spec?: Spec });
        const last = handles[handles.length - 1];
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (!on || method === '_all') continue;
          out.push({
            method: method.toUpperCase(),
            path: layer.route.path,
            spec: last?.spec,
            middlewares: handles.length - 1,
          });
        }
      } else if (layer.handle?.stack) visit(layer.handle.stack);
    }
  };
  visit(server.router.stack);
  return out;
}

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  valueType?: z.ZodType;
  items?: z.ZodType[];
  getter?: () => z.ZodType;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/**
 * Visits every schema node of `schema` with its field path (`a.b[]`), once per node. With
 * `inputOnly`, the output side of a pipe (what a transform made, not what the client sent) is
 * left out.
 */
export function walkSchema(
  schema: z.ZodType,
  visit: (node: z.ZodType, path: string, def: Def) => void,
  options: { inputOnly?: boolean } = {},
  path = '',
  seen = new Set<z.ZodType>(),
): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  const def = defOf(schema);
  visit(schema, path, def);
  const next = (child: z.ZodType | undefined, childPath = path) =>
    child && walkSchema(child, visit, options, childPath, new Set(seen));
  switch (def.type) {
    case 'object':
      for (const [key, child] of Object.entries(def.shape ?? {}))
        next(child, path ? `${path}.${key}` : key);
      break;
    case 'array':
      next(def.element, `${path}[]`);
      break;
    case 'union':
      for (const option of def.options ?? []) next(option);
      break;
    case 'pipe':
      next(def.in);
      if (!options.inputOnly) next(def.out);
      break;
    case 'intersection':
      next(def.left);
      next(def.right);
      break;
    case 'record':
      next(def.valueType, `${path}{}`);
      break;
    case 'tuple':
      for (const item of def.items ?? []) next(item, `${path}[]`);
      break;
    case 'lazy':
      next(def.getter?.());
      break;
    default:
      next(def.innerType);
  }
}

/** Every field of a schema that is a reference, as `path → kind`. */
export function referencesOf(schema: z.ZodType | undefined): Map<string, ReferenceKind> {
  const found = new Map<string, ReferenceKind>();
  if (!schema) return found;
  walkSchema(schema, (node, path) => {
    const meta = referenceRegistry.get(node);
    if (meta) found.set(path, meta.reference);
  });
  return found;
}
