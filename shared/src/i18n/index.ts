/** i18next resources: pt-BR is the default and the fallback (core §1). */
import { en } from './en.js';
import { es } from './es.js';
import { ptBR } from './pt-BR.js';

export { en, es, ptBR };
export type { TranslationShape } from './types.js';

export const LANGUAGES = ['pt-BR', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'pt-BR';

/** The `resources` option of i18next, one `translation` namespace per language. */
export const i18nResources = {
  'pt-BR': { translation: ptBR },
  en: { translation: en },
  es: { translation: es },
} as const;

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
