import shellEn from '#i18n/en.json';
import { createI18n } from '#i18n/i18n.ts';
import { LOCALE_LOADERS } from './locale-loaders.ts';

/**
 * The page's one i18n instance: English shell strings (landing, 404, error page) from the start,
 * everything else on demand. docs/product.md §4: default en, in memory only.
 */
export const appI18n = createI18n({ messages: { en: shellEn }, loaders: LOCALE_LOADERS });
void appI18n.loadNamespaces(['shell']);
