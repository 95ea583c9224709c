import { RESET_PASSWORD_MESSAGE } from '@atende/shared';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** The schema messages of @atende/shared (kept as the spec quotes them) and their keys. */
const KNOWN_MESSAGES: Record<string, string> = {
  Required: 'validation.required',
  'Too Short!': 'validation.tooShort',
  'Too Long!': 'validation.tooLong',
  'Invalid email': 'validation.invalidEmail',
  'Campo obrigatório': 'validation.fieldRequired',
  'As senhas não correspondem': 'validation.passwordsDiffer',
  'Selecione uma fila': 'validation.selectQueue',
  [RESET_PASSWORD_MESSAGE]: 'validation.weakPassword',
};

/** Translates a validation message when it is one of the known ones. */
export function useFieldError(): (message: string | undefined) => string | undefined {
  const { t } = useTranslation();
  return useCallback(
    (message) => {
      if (!message) return undefined;
      const key = KNOWN_MESSAGES[message];
      return key ? t(key) : message;
    },
    [t],
  );
}
