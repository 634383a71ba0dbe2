import type { FastifyPluginAsync } from 'fastify';
import { allowInlineStyle } from '../http/security-headers.ts';
import { escapeHtml } from '../http/html.ts';
import { linksIn, plainText, readStoredMail } from './eml.ts';

/**
 * The local inbox (docs/rules.md#mail): outside production, without SMTP, the outbox's messages
 * listed newest first with their links, so a verification or reset link is one click away. A link
 * as long as a token makes it, or an address, breaks anywhere, so a phone reads it without
 * scrolling sideways.
 */
export const inboxRoutes: FastifyPluginAsync<{ outboxDir: string }> = async (app, { outboxDir }) => {
  const page = (title: string, body: string) => `<!doctype html><html lang="en-GB"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><link rel="icon" href="data:,">
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#1b1f24}
article{border-bottom:1px solid #ccd;padding:.75rem 0}pre{white-space:pre-wrap;background:#f4f6f8;padding:1rem}
body{overflow-wrap:anywhere}</style></head>
<body><p role="note"><strong>Local inbox</strong>: mail the shop wrote to ${escapeHtml(outboxDir)} (not shown in production).</p>
<h1>${escapeHtml(title)}</h1>${body}</body></html>`;

  app.get('/dev/inbox', async (_request, reply) => {
    const mail = await readStoredMail(outboxDir);
    const items = mail.map((m) => {
      const links = linksIn(plainText(m.raw));
      return `<article><h2><a href="/dev/inbox/${encodeURIComponent(m.file)}">${escapeHtml(m.subject || '(no subject)')}</a></h2>
<p>To ${escapeHtml(m.to)} · ${escapeHtml(m.date)}</p>${links.length ? `<ul>${links.map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`).join('')}</ul>` : ''}</article>`;
    });
    return allowInlineStyle(reply)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(page('Inbox', items.join('') || '<p>No messages yet.</p>'));
  });

  app.get<{ Params: { file: string } }>('/dev/inbox/:file', async (request, reply) => {
    const mail = (await readStoredMail(outboxDir)).find((m) => m.file === request.params.file);
    if (!mail) return reply.status(404).type('text/plain').send('No such message');
    return allowInlineStyle(reply)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        page(
          mail.subject,
          `<p>To ${escapeHtml(mail.to)} · ${escapeHtml(mail.date)}</p><pre>${escapeHtml(plainText(mail.raw))}</pre><p><a href="/dev/inbox">Back to the inbox</a></p>`,
        ),
      );
  });
};
