import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { readPageFacts } from './lib/site-config.ts';
import './styles.css';

const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <App facts={readPageFacts()} />
  </StrictMode>
);
// The server rendered this page (entry-server.tsx): take its HTML over. A page it did not
// render (the dev server, a page with its own shell) arrives empty and is rendered here.
if (root.firstElementChild) hydrateRoot(root, app);
else createRoot(root).render(app);
