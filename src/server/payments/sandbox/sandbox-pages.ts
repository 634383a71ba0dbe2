import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import { escapeHtml } from '../../http/html.ts';
import { allowInlineStyle } from '../../http/security-headers.ts';
import { poundsToPence } from '../../../contract/money.ts';

/** What the PayPal and Opayo sandboxes share: their pages, their form posts, their amounts. */

export const page = (title: string, body: string) => `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="data:,">
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f4f6f8;color:#1b1f24}
.banner{background:#7a1f00;color:#fff;padding:.75rem 1rem;font-weight:700}
main{max-width:560px;margin:1.5rem auto;background:#fff;padding:1.5rem;border-radius:10px;box-shadow:0 2px 10px rgb(0 0 0/.08)}
table{width:100%;border-collapse:collapse}td,th{padding:.4rem;border-bottom:1px solid #dde;text-align:left}
td:last-child,th:last-child{text-align:right}label{display:block;font-weight:600;margin-top:.75rem}
input{width:100%;box-sizing:border-box;padding:.6rem;font:inherit;border:1px solid #778;border-radius:6px}
button{margin-top:1rem;margin-right:.5rem;padding:.7rem 1.2rem;font:inherit;font-weight:700;border-radius:999px;border:2px solid #0b4f8a;background:#0b4f8a;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#0b4f8a}a.cancel{display:inline-block;margin-top:1rem;color:#0b4f8a;font-weight:700}.error{color:#b91c1c}
</style></head>
<body><div class="banner" role="note">SANDBOX: a local stand-in for testing. No real payment is taken.</div>
<main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

/** Sends a sandbox page: its inline style allowed, never cached. */
export function sendPage(reply: FastifyReply, status: number, content: string) {
  return allowInlineStyle(reply)
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(content);
}

export function hiddenFields(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
}

/** The providers post forms: their bodies are kept as text, read with formFields. */
export function acceptFormPosts(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_req, body, done) => done(null, body),
  );
}

export function formFields(body: unknown): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : ''));
}

export function toPence(decimal: string | undefined): number {
  return /^\d+(\.\d{1,2})?$/.test(decimal ?? '') ? (poundsToPence(decimal ?? '') ?? 0) : 0;
}

/** Our own addresses only: the sandbox must not be a way to reach other hosts. */
export function isOurs(config: Pick<Config, 'publicUrl'>, url: string | undefined): boolean {
  return Boolean(url?.startsWith(`${config.publicUrl}/`));
}
