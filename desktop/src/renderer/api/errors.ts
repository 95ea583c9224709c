import { errorText, isErrorCode, type Language } from '@atende/shared';

/** A non-2xx answer: `{ error: 'ERR_…', message, details? }` when the server sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly serverMessage: string | undefined,
    readonly details?: unknown,
  ) {
    super(code ?? serverMessage ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }

  static fromAnswer(status: number, data: unknown): ApiError {
    if (data && typeof data === 'object') {
      const body = data as { error?: unknown; message?: unknown; details?: unknown };
      return new ApiError(
        status,
        typeof body.error === 'string' ? body.error : undefined,
        typeof body.message === 'string' ? body.message : undefined,
        body.details,
      );
    }
    return new ApiError(status, undefined, typeof data === 'string' && data ? data : undefined);
  }
}

const formatDate = (value: string, lang: Language): string => {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleDateString(lang, { timeZone: 'UTC' });
};

/** `{{name}}` parameters of a translated error, taken from the error's details. */
function paramsOf(details: unknown, lang: Language): Record<string, string | number> {
  if (!details || typeof details !== 'object') return {};
  const params: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(details)) {
    if (typeof value === 'number') params[key] = value;
    else if (typeof value === 'string') params[key] = value;
  }
  const due = params.date ?? params.dueDate;
  if (typeof due === 'string') params.date = formatDate(due, lang);
  return params;
}

/**
 * The toast text for a failure (core §8): the translation of a known error code, else the raw
 * error text, a plain string as is, else the generic text.
 */
export function errorMessage(error: unknown, lang: Language, generic: string): string {
  if (error instanceof ApiError) {
    if (isErrorCode(error.code)) return errorText(error.code, lang, paramsOf(error.details, lang));
    return error.serverMessage ?? error.code ?? generic;
  }
  if (typeof error === 'string' && error) return error;
  return generic;
}
