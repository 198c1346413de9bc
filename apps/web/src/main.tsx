import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { appI18n } from './app/app-i18n.ts';
import { AppRouter } from './app/router.tsx';
import { syncDocumentLanguage } from './i18n/document-language.ts';
import { I18nContext } from './i18n/i18n-context.ts';
import './index.css';

syncDocumentLanguage(appI18n);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <I18nContext value={appI18n}>
      <AppRouter />
    </I18nContext>
  </StrictMode>,
);
