import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, readOutbox } from '../../../test/helpers/outbox.ts';
import { loadConfig } from '../config.ts';
import { createMailer, renderBodies } from './mailer.ts';

describe('the mailer without SMTP', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('writes each message to the outbox as an .eml with text and HTML bodies and the shop footer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    dirs.push(dir);
    const { shop } = loadConfig({});
    const mailer = createMailer({ smtpUrl: undefined, outboxDir: join(dir, 'new'), shop });
    await mailer.send({
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
    expect(body).toContain('First &#38; foremost.');
    expect(body).toContain('<a href="https://shop.example/x">');
    expect(body).toContain(shop.address);
    expect(mail!.raw).toMatch(new RegExp(`^From: "?${shop.name}"? <${shop.email}>`, 'm'));
  });

  it('escapes what a customer typed in the HTML body', () => {
    const { shop } = loadConfig({});
    const { html, text } = renderBodies(
      { to: 'x@example.com', subject: 's', paragraphs: ['Dear <script>alert(1)</script>'] },
      shop,
    );
    expect(html).not.toContain('<script>');
    expect(text).toContain('Dear <script>alert(1)</script>');
  });
});
