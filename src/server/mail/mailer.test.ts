import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, deliveredMail, readOutbox } from '../../../test/helpers/outbox.ts';
import { testMailBrand } from '../../../test/helpers/mail-brand.ts';
import { loadConfig } from '../config.ts';
import { createMailTransport, renderBodies } from './mailer.ts';
import { readStoredMail } from './eml.ts';

describe('the mail transport without SMTP', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('writes each message to the outbox as an .eml with text and HTML bodies and the shop footer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    dirs.push(dir);
    const { shop } = loadConfig({});
    const transport = createMailTransport({
      smtpUrl: undefined,
      outboxDir: join(dir, 'new'),
      brand: testMailBrand({ publicUrl: 'https://shop.example' }),
    });
    await transport.deliver({
      to: 'asha@example.com',
      subject: 'Hello <there>',
      paragraphs: ['First & foremost.', 'See https://shop.example/x'],
    });
    const [mail, ...rest] = readOutbox(join(dir, 'new'));
    expect(rest).toEqual([]);
    expect(mail).toMatchObject({ to: 'asha@example.com', subject: 'Hello <there>' });
    const body = decodeQuotedPrintable(mail!.raw);
    expect(body).toContain('multipart/alternative');
    expect(body).toContain('First & foremost.');
    expect(body).toContain('First &amp; foremost.');
    expect(body).toContain('<a href="https://shop.example/x"');
    expect(body).toContain(shop.address);
    expect(mail!.raw).toMatch(new RegExp(`^From: "?${shop.name}"? <${shop.email}>`, 'm'));
  });

  it("lists the outbox on the local inbox page with each message's links, outside production", async () => {
    const { createTestApp } = await import('../../../test/helpers/test-app.ts');
    const t = await createTestApp();
    try {
      await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: 'nobody@example.com' } });
      await t.app.inject({
        method: 'POST',
        url: '/api/contact',
        payload: {
          email: 'a@example.com',
          name: 'Asha <b>',
          phone: '0121 496 0000',
          message: 'See https://example.com/tabla please',
        },
      });
      await deliveredMail(t);
      const inbox = await t.app.inject({ method: 'GET', url: '/dev/inbox' });
      expect(inbox.statusCode).toBe(200);
      expect(inbox.body).toContain('Enquiry from Asha &#60;b&#62;');
      expect(inbox.body).toContain('<a href="https://example.com/tabla">');
      const file = /href="\/dev\/inbox\/([^"]+)"/.exec(inbox.body)?.[1] ?? '';
      expect((await t.app.inject({ method: 'GET', url: `/dev/inbox/${file}` })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/dev/inbox/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('shows a subject the mail program wrote encoded and folded as its words (the local inbox)', async () => {
    // A walk-through saw "=?UTF-8?Q?3_new_orders…" on the inbox page.
    const outbox = mkdtempSync(join(tmpdir(), 'inbox-'));
    writeFileSync(
      join(outbox, '2026-11-29-one.eml'),
      'To: owner@example.com\r\nSubject: =?UTF-8?Q?3_new_orders_=E2=80=94_Raag?=\r\n =?UTF-8?B?IEluc3RydW1lbnRz?=\r\nDate: today\r\n\r\nBody',
    );
    const [mail] = await readStoredMail(outbox);
    expect(mail!.subject).toBe('3 new orders — Raag Instruments');
    expect(mail!.to).toBe('owner@example.com');
    rmSync(outbox, { recursive: true, force: true });
  });

  it('escapes what a customer typed in the HTML body', () => {
    const { html, text } = renderBodies(
      { to: 'x@example.com', subject: 's', paragraphs: ['Dear <script>alert(1)</script>'] },
      testMailBrand(),
    );
    expect(html).not.toContain('<script>');
    expect(text).toContain('Dear <script>alert(1)</script>');
  });
});
