import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { basketStore } from './lib/basket/basket-store.ts';
import './styles/global.css';

// The server wrote a product's head for crawlers; the app now renders each page's own.
for (const element of document.querySelectorAll('[data-server-head]')) element.remove();

basketStore.start();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
