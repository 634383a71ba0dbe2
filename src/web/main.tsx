import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { basketStore } from './lib/basket/basket-store.ts';
import { setDefaultDescription } from './lib/page-meta.tsx';
import './styles/global.css';

// The server wrote a default title, or a product's head for crawlers; the app now renders each
// page's own (React places its <title> after any existing one, and the first one wins).
// Its generic description too: each page renders one, its own or this one. (A page with its own
// description was sent with the generic one unnamed, so that crawlers read one: web-app.ts.)
const generic = document.querySelector(
  'head > meta[name="description"]:not([data-server-head]), head > meta[data-generic-description]',
);
setDefaultDescription(generic?.getAttribute('content') ?? '');
for (const element of document.querySelectorAll(
  '[data-server-head], head > title, head > meta[name="description"], head > meta[data-generic-description]',
)) {
  element.remove();
}

// The bare address is the home page's canonical address, served as the home page (page-head.ts);
// the spec's route table shows it at /home, and the page was drawn there, so the router starts there.
if (window.location.pathname === '/') {
  window.history.replaceState(window.history.state, '', `/home${window.location.search}${window.location.hash}`);
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
