import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createRouter } from './app/router.tsx';
import { createI18n, syncDocumentLanguage } from './i18n/i18n.ts';
import './index.css';

const i18n = createI18n();
syncDocumentLanguage(i18n.language);
i18n.on('languageChanged', syncDocumentLanguage);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <RouterProvider router={createRouter()} />
  </StrictMode>,
);
