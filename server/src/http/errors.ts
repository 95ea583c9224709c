import type { ErrorRequestHandler } from 'express';
import { errorStatus, errorText, type ErrorBody, type ErrorCode } from '@atende/shared';
import { logger } from '../logger.js';

/** A typed error: services throw it, the error middleware answers it. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly options: { params?: Record<string, string | number>; details?: unknown } = {},
  ) {
    super(errorText(code, 'pt-BR', options.params));
    this.status = errorStatus(code);
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: this.code, message: this.message };
    if (this.options.details !== undefined) body.details = this.options.details;
    return body;
  }
}

export class ValidationError extends AppError {
  constructor(issues: { path: string; message: string }[]) {
    super('ERR_VALIDATION', { details: issues });
    this.message = issues.map((i) => `${i.path || 'body'}: ${i.message}`).join('; ');
  }
}

interface BodyParserError {
  type?: string;
  status?: number;
  name?: string;
  code?: string;
  message?: string;
}

/** multer's limit codes and what each answers. */
const MULTER_CODES: Record<string, ErrorCode> = {
  LIMIT_FILE_SIZE: 'ERR_FILE_TOO_LARGE',
  LIMIT_FILE_COUNT: 'ERR_TOO_MANY_FILES',
  LIMIT_UNEXPECTED_FILE: 'ERR_UNEXPECTED_FILE',
  LIMIT_PART_COUNT: 'ERR_MALFORMED_MULTIPART',
  LIMIT_FIELD_KEY: 'ERR_MALFORMED_MULTIPART',
  LIMIT_FIELD_VALUE: 'ERR_PAYLOAD_TOO_LARGE',
  LIMIT_FIELD_COUNT: 'ERR_MALFORMED_MULTIPART',
  MISSING_FIELD_NAME: 'ERR_MALFORMED_MULTIPART',
};

/** body-parser's error types (express.json) and what each answers. */
const PARSER_TYPES: Record<string, ErrorCode> = {
  'entity.parse.failed': 'ERR_MALFORMED_JSON',
  'entity.too.large': 'ERR_PAYLOAD_TOO_LARGE',
  'encoding.unsupported': 'ERR_UNSUPPORTED_ENCODING',
  'charset.unsupported': 'ERR_UNSUPPORTED_ENCODING',
  'request.aborted': 'ERR_MALFORMED_MULTIPART',
  'request.size.invalid': 'ERR_VALIDATION',
  'parameters.too.many': 'ERR_PAYLOAD_TOO_LARGE',
};

/**
 * What busboy (under multer) throws for a body that is not a well-formed form: a missing or
 * broken boundary, a truncated body, a bad part header, a client that went away mid-upload.
 */
const MALFORMED_FORM =
  /^(Unexpected end of (form|file)|Malformed (part header|content type|urlencoded form)|Multipart: Boundary not found|Unsupported content type|Missing Content-Type|Request (aborted|closed|error))/;

/**
 * Postgres refusing a value a schema let through (SQLSTATE class 22: NUL, out of range, bad
 * date) or a row that changed under the request (unique or foreign key violation): the input's
 * fault, a 4xx, never a 500. Logged, because each one is a schema or service that should have
 * caught it first.
 */
function databaseInputCode(code: string | undefined): ErrorCode | undefined {
  if (typeof code !== 'string' || code.length !== 5) return undefined;
  if (code === '23505' || code === '23503') return 'ERR_CONFLICT';
  if (code.startsWith('22')) return 'ERR_VALIDATION';
  return undefined;
}

/** The ERR_* code of an error thrown by the body parsers, multer or Postgres for bad input. */
export function inputErrorCode(err: unknown): ErrorCode | undefined {
  const e = err as BodyParserError | null | undefined;
  if (!e || typeof e !== 'object') return undefined;
  const database = databaseInputCode(e.name === 'QueryFailedError' ? e.code : undefined);
  if (database) return database;
  if (e.name === 'MulterError' && e.code) return MULTER_CODES[e.code] ?? 'ERR_MALFORMED_MULTIPART';
  if (e.type && Object.hasOwn(PARSER_TYPES, e.type)) return PARSER_TYPES[e.type];
  if (typeof e.message === 'string' && MALFORMED_FORM.test(e.message))
    return 'ERR_MALFORMED_MULTIPART';
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return 'ERR_VALIDATION';
  return undefined;
}

/** One place maps every error to `{error, message}`; input problems never become a 500. */
export const errorMiddleware: ErrorRequestHandler = (err: unknown, req, res, _next) => {
  if (res.headersSent) {
    // A stream already answering (a file being sent) cannot take a JSON error: end it.
    if (!(err instanceof AppError) && !inputErrorCode(err))
      logger.error({ err, method: req.method, url: req.originalUrl }, 'error after answer sent');
    res.end();
    return;
  }
  if (err instanceof AppError) {
    res.status(err.status).json(err.toBody());
    return;
  }
  const code = inputErrorCode(err);
  if (code) {
    if ((err as BodyParserError).name === 'QueryFailedError')
      logger.warn({ err, method: req.method, url: req.originalUrl }, 'input refused by Postgres');
    const error = new AppError(code);
    res.status(error.status).json(error.toBody());
    return;
  }
  logger.error({ err, method: req.method, url: req.originalUrl }, 'unhandled error');
  res.status(500).json(new AppError('ERR_INTERNAL').toBody());
};
