import type { TFunction } from 'i18next';
import en from '../i18n/en.json';
import { ApiError } from './api-client.ts';

type TranslatedErrorCode = keyof typeof en.errors;

function isTranslatedCode(code: string): code is TranslatedErrorCode {
  return Object.hasOwn(en.errors, code);
}

/**
 * The message to show for a failed API call: the translation of its error code (CONVENTIONS 5:
 * user messages live in the i18n files keyed by code), else the server's text, else `fallback`.
 */
export function apiErrorMessage(t: TFunction, error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    return isTranslatedCode(error.code) ? t(`errors.${error.code}`) : error.message || fallback;
  }
  return fallback;
}
