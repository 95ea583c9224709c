import { isLanguage, type Language } from '@atende/shared';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../api/errors';
import { toast } from './toast';

export const currentLanguage = (lng: string | undefined): Language =>
  isLanguage(lng) ? lng : 'pt-BR';

/** Shows a failure as a toast with the translation rules of core §8. */
export function useErrorToast(): (error: unknown) => void {
  const { t, i18n } = useTranslation();
  return useCallback(
    (error: unknown) =>
      toast.error(errorMessage(error, currentLanguage(i18n.language), t('errors.generic'))),
    [t, i18n],
  );
}
