import { ERROR_CODES, type ErrorCode } from '@pm/core/contract/errors';
import type { TFunction } from '#i18n/translate.ts';
import { ApiError } from './api-client.ts';

// Every code has a message in both languages (i18n/translations.test.ts).
function isErrorCode(code: string): code is ErrorCode {
  return ERROR_CODES.some((known) => known === code);
}

/**
 * The message to show for a failed API call: the translation of its error code (CONVENTIONS 5:
 * user messages live in the i18n files keyed by code), else the server's text, else `fallback`.
 */
export function apiErrorMessage(t: TFunction, error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    return isErrorCode(error.code) ? t(`errors.${error.code}`) : error.message || fallback;
  }
  return fallback;
}
