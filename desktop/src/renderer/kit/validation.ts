import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useFieldError } from '../components/useFieldError';
import './i18n';

/**
 * A required text: empty gives `message` first, then the field's own rules (so an empty name
 * reads 'Required', a one-letter one 'Too Short!').
 */
export const requiredText = <T extends z.ZodType<unknown, string>>(
  schema: T,
  message = 'Required',
) => z.string({ error: message }).trim().min(1, message).pipe(schema);

/** Texts of admin §5 and secondary §5 the shell does not know, with their translations. */
const ADMIN_MESSAGES: Record<string, string> = {
  Obrigatório: 'admin.validation.required',
  'Mensagem muito curta': 'admin.validation.tooShort',
  'HH:MM': 'admin.hhmm',
};

/** Translates a validation message of the shared schemas or of the admin forms. */
export function useAdminFieldError(): (message: string | undefined) => string | undefined {
  const { t } = useTranslation();
  const shell = useFieldError();
  return useCallback(
    (message) => {
      if (!message) return undefined;
      const key = ADMIN_MESSAGES[message];
      return key ? t(key) : shell(message);
    },
    [t, shell],
  );
}
