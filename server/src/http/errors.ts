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
}

/** One place maps every error to `{error, message}`; input problems never become a 500. */
export const errorMiddleware: ErrorRequestHandler = (err: unknown, req, res, _next) => {
  if (err instanceof AppError) {
    res.status(err.status).json(err.toBody());
    return;
  }
  const parserError = err as BodyParserError;
  if (parserError?.type === 'entity.parse.failed') {
    res.status(400).json(new AppError('ERR_MALFORMED_JSON').toBody());
    return;
  }
  if (parserError?.type === 'entity.too.large') {
    res.status(413).json(new AppError('ERR_PAYLOAD_TOO_LARGE').toBody());
    return;
  }
  if (
    typeof parserError?.status === 'number' &&
    parserError.status >= 400 &&
    parserError.status < 500
  ) {
    res.status(parserError.status).json(new AppError('ERR_VALIDATION').toBody());
    return;
  }
  logger.error({ err, method: req.method, url: req.originalUrl }, 'unhandled error');
  res.status(500).json(new AppError('ERR_INTERNAL').toBody());
};
