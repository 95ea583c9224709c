import { DEFAULT_LANGUAGE, i18nResources, isLanguage, type Language } from '@atende/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStorage, STORAGE_KEYS, writeStorage } from './session/storage';

export function storedLanguage(): Language {
  const value = readStorage(STORAGE_KEYS.language);
  return isLanguage(value) ? value : DEFAULT_LANGUAGE;
}

/** pt-BR is the default and the fallback; the choice is kept as `i18nextLng` (core §3). */
export async function initI18n(lng: Language = storedLanguage()) {
  if (i18next.isInitialized) {
    await i18next.changeLanguage(lng);
    return i18next;
  }
  await i18next.use(initReactI18next).init({
    resources: i18nResources,
    lng,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: ['pt-BR', 'en', 'es'],
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = lng;
  i18next.on('languageChanged', (next) => {
    writeStorage(STORAGE_KEYS.language, next);
    document.documentElement.lang = next;
  });
  return i18next;
}
