/**
 * The route table's building block: one declaration per HTTP endpoint (method, path, who may
 * call it, its params, query, body and answer schemas, the plan flag that gates it). The server
 * registers its handlers from these, the renderer calls them through a typed client, and the
 * OpenAPI document is generated from them. Paths use express syntax (`/tickets/:ticketId`).
 */
import type { z } from 'zod';
import type { Permission } from '../domain/permissions.js';
import type { PlanFlag } from '../domain/plan-flags.js';

export type HttpVerb = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Who may call an endpoint: anyone, any signed-in user, a permission holder, admin or super. */
export type Access = 'public' | 'user' | 'super' | 'admin' | Permission;

/**
 * What an endpoint answers besides JSON: `file` (a download or stream: media, spreadsheets),
 * `html` (a page), `text` (plain text such as metrics).
 */
export type RawAnswer = 'file' | 'html' | 'text';

export interface Endpoint {
  method: HttpVerb;
  path: string;
  /** One line for the reference (`/api-docs`). */
  summary: string;
  /** The feature group shown in the reference (tickets, contacts...). */
  tag: string;
  /** Default `user`. */
  access?: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON body, or for `multipart` endpoints the text fields of the form. */
  body?: z.ZodType;
  /** The request is `multipart/form-data` (files are read by the handler's upload step). */
  multipart?: boolean;
  /** The answer's JSON shape; omitted with `status: 204`; a RawAnswer for non-JSON answers. */
  response?: z.ZodType | RawAnswer;
  /** The success status; default 200, or 204 when there is no response. */
  status?: number;
  /** A company whose plan lacks this flag gets 403 ERR_PLAN_FEATURE_DISABLED. */
  plan?: PlanFlag;
}

/** Declares an endpoint, keeping its literal types for the typed client and the server. */
export const endpoint = <const E extends Endpoint>(e: E): E => e;

type In<T> = T extends z.ZodType ? z.input<T> : undefined;
type OutOf<T> = T extends z.ZodType ? z.output<T> : undefined;

/** What a caller gives: only the parts the endpoint declares. */
export type EndpointInput<E extends Endpoint> = (E['params'] extends z.ZodType
  ? { params: In<E['params']> }
  : { params?: undefined }) &
  (E['query'] extends z.ZodType ? { query?: In<E['query']> } : { query?: undefined }) &
  (E['body'] extends z.ZodType ? { body: In<E['body']> } : { body?: undefined });

/**
 * What the endpoint answers: the parsed JSON, `void` for 204, a string for html/text; a file's
 * bytes are the platform's (a Blob in the renderer), so `unknown` here.
 */
export type EndpointAnswer<E extends Endpoint> = E['response'] extends z.ZodType
  ? OutOf<E['response']>
  : E['response'] extends 'file'
    ? unknown
    : E['response'] extends 'html' | 'text'
      ? string
      : void;

/** `/tickets/:ticketId` with `{ticketId: 7}` → `/tickets/7` (each value URI-encoded). */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value as string | number));
  });
}

/** `/tickets/:ticketId` → `/tickets/{ticketId}` (OpenAPI's template syntax). */
export const openApiPath = (path: string): string => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
