import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { basketStore } from './lib/basket/basket-store.ts';
import { setDefaultDescription } from './lib/page-meta.tsx';
import './styles/global.css';

// The server wrote a default title, or a product's head for crawlers; the app now renders each
// page's own (React places its <title> after any existing one, and the first one wins).
// Its generic description too: each page renders one, its own or this one.
const generic = document.querySelector('head > meta[name="description"]:not([data-server-head])');
setDefaultDescription(generic?.getAttribute('content') ?? '');
for (const element of document.querySelectorAll('[data-server-head], head > title, head > meta[name="description"]')) {
  element.remove();
}

basketStore.start();
// A payment provider sends a cancelled or declined payment back here: the order's lines come back
// as the basket at once, before the page's own code has loaded, whatever the shopper clicks next.
if (window.location.pathname === '/payment-declined') void basketStore.restoreUnpaidOrder();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// A page the server rendered (docs/decisions/0021-server-rendering.md) is hydrated: React takes
// over the HTML already drawn, keeping each part until its code has loaded, instead of drawing it
// again. As a transition, so the work yields to the browser every few milliseconds (the page is
// already on screen, and a tap on it is answered between slices) rather than holding it in one task.
if (root.firstElementChild) startTransition(() => void hydrateRoot(root, app));
else createRoot(root).render(app);
