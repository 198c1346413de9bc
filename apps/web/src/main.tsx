import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { appI18n } from '#app/app-i18n.ts';
import { AppRouter, preloadRoute } from '#app/router.tsx';
import { syncDocumentLanguage } from '#i18n/document-language.ts';
import { I18nContext } from '#i18n/i18n-context.ts';
import './index.css';

syncDocumentLanguage(appI18n);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const render = () =>
  createRoot(root).render(
    <StrictMode>
      <I18nContext value={appI18n}>
        <AppRouter />
      </I18nContext>
    </StrictMode>,
  );

// The first page's code first, then one render with no fallback. If it fails to load, the render
// tries again and the error page says so.
preloadRoute(window.location.pathname).then(render, render);
