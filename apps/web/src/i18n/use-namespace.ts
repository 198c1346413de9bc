import { use } from 'react';
import { useTranslation } from './use-translation.ts';

/**
 * Suspends until a namespace's messages are there in the active language. For lazy parts whose
 * strings only they use (the review window's), so the route that may show them does not load
 * those strings at start (docs/decisions/006, JS budget).
 */
export function useNamespace(namespace: string): void {
  const { i18n } = useTranslation();
  use(i18n.namespace(namespace));
}
