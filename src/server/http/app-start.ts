import { escapeHtml } from './html.ts';

/**
 * A page drawn on the server starts its app after the first frame (/boot.js,
 * docs/decisions/0021-server-rendering.md): the app's module script and its preloads are taken out
 * of the page's head and given to the boot script, which adds them once the page has been painted.
 * A page without exactly one module script is left as it is.
 */
export function startAppAfterFirstPaint(html: string): string {
  const modules: string[] = [];
  const preloads: string[] = [];
  const headEnd = html.indexOf('</head>');
  if (headEnd < 0) return html;
  const head = html
    .slice(0, headEnd)
    .replace(/<script type="module" crossorigin src="([^"]+)"><\/script>\s*/g, (_, src: string) => {
      modules.push(src);
      return '';
    })
    .replace(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g, (_, href: string) => {
      preloads.push(href);
      return '';
    });
  const app = modules[0];
  if (modules.length !== 1 || app === undefined) return html;
  const boot = `<script async src="/boot.js" data-app="${escapeHtml(app)}" data-preload="${escapeHtml(preloads.join(' '))}"></script>`;
  return `${head}${boot}${html.slice(headEnd)}`;
}
