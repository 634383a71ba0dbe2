/* global document, requestAnimationFrame */
// Starts the shop's app on a page drawn on the server (docs/decisions/0021-server-rendering.md)
// once the browser has drawn the page's first frame. The page is readable without its code, so the
// code is fetched after what the first paint needs (the HTML, the styles, the main image) instead
// of beside it. A classic script, not a module: it reads its own tag for the app's files, which the
// server moved here from the page's head (server/http/app-start.ts). A tab not shown yet draws no
// frames, so there the app starts at once.
(() => {
  const boot = document.currentScript;
  const app = boot?.getAttribute('data-app');
  if (!app) return;
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
