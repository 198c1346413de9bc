import { createContext } from 'react';
import type { I18n } from './i18n.ts';

/** The app's one I18n instance (main.tsx); tests render with their own. */
export const I18nContext = createContext<I18n | null>(null);
