/* global document, requestAnimationFrame, window, Element */
// Starts the shop's app on a page drawn on the server (docs/decisions/0021-server-rendering.md)
// once the browser has drawn the page's first frame. The page is readable without its code, so the
// code is fetched after what the first paint needs (the HTML, the styles, the main image) instead
// of beside it. A classic script, not a module: it reads its own tag for the app's files, which the
// server moved here from the page's head (server/http/app-start.ts). A tab not shown yet draws no
// frames, so there the app starts at once.
//
// Until then, a tap on one of the page's buttons (or a form sent) is kept rather than lost (issue 32:
// on a slow phone the page is on screen seconds before its code): the button shows it is busy, and
// once the page has started (layout.tsx calls window.shopStarted) each kept one is tapped again,
// once however often it was tapped. Links need nothing: they work without the code.
(() => {
  const boot = document.currentScript;
  const app = boot?.getAttribute('data-app');
  if (!app) return;
  const kept = [];
  const keep = (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const control =
      event.type === 'submit'
        ? target
        : target?.closest('button, [role="button"], input[type="checkbox"], input[type="radio"], input[type="submit"]');
    if (!control || !control.closest('#root')) return;
    event.preventDefault();
    event.stopPropagation();
    if (kept.some((one) => one.control === control)) return;
    kept.push({ control, submit: event.type === 'submit' });
    if (event.type !== 'submit') control.setAttribute('aria-busy', 'true');
  };
  document.addEventListener('click', keep, true);
  document.addEventListener('submit', keep, true);
  window.shopStarted = () => {
    window.shopStarted = undefined;
    document.removeEventListener('click', keep, true);
    document.removeEventListener('submit', keep, true);
    for (const { control, submit } of kept.splice(0)) {
      control.removeAttribute('aria-busy');
      if (!control.isConnected) continue;
      if (submit) control.requestSubmit();
      else control.click();
    }
  };
  const preloads = (boot.getAttribute('data-preload') ?? '').split(' ').filter(Boolean);
  const start = () => {
    for (const href of preloads) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = app;
    document.head.append(script);
  };
  if (document.visibilityState === 'hidden') start();
  else requestAnimationFrame(() => setTimeout(start));
})();
