import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeQuotedPrintable, deliveredMail, type OutboxMail } from '../../../test/helpers/outbox.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * The contact form (docs/rules.md#mail): the enquiry goes to the shop, with a Reply-To of the
 * sender, and a fixed acknowledgement goes to the address given. The acknowledgement echoed the
 * sender's chosen name (in its subject) and message (links made clickable) from the shop's own
 * address to any address, five a minute per client: a relay for anyone's text. It now says only
 * the shop's words, and goes to one address a few times a day, whoever asks.
 */
describe('POST /api/contact', () => {
  let t: TestApp;
  let ips = 0;
  const nextIp = () => `198.51.100.${++ips}`;
  let addresses = 0;
  const newAddress = () => `visitor${++addresses}@example.com`;
  const send = (payload: object, remoteAddress = nextIp()) =>
    t.app.inject({ method: 'POST', url: '/api/contact', payload, remoteAddress });
  const enquiry = (email: string, overrides: object = {}) => ({
    email,
    name: 'Asha Patel',
    phone: '0121 496 0000',
    message: 'Do you repair tablas?',
    ...overrides,
  });
  const header = (mail: OutboxMail, name: string) =>
    new RegExp(`^${name}: (.*)$`, 'mi').exec(mail.raw.split(/\r?\n\r?\n/)[0] ?? '')?.[1]?.trim();
  const body = (mail: OutboxMail) => decodeQuotedPrintable(mail.raw);
  const mailTo = async (address: string) => (await deliveredMail(t)).filter((m) => m.to === address);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  it('acknowledges the sender in the shop’s own words, without their name or message', async () => {
    const sender = newAddress();
    const spam = {
      name: 'You won! Claim at https://prize.example/claim',
      message: 'Visit https://prize.example/offer for your prize',
    };
    expect((await send(enquiry(sender, spam))).json()).toEqual({ ok: true });
    const [ack, ...more] = await mailTo(sender);
    expect(more).toEqual([]);
    expect(ack!.subject).toBe(`We have your message - ${t.config.shop.name}`);
    expect(header(ack!, 'From')).toContain(t.config.shop.email);
    expect(header(ack!, 'Reply-To')).toBeUndefined();
    const text = body(ack!);
    expect(text).toContain('We have received your message');
    expect(text).not.toContain('prize.example');
    expect(text).not.toContain('You won');
  });

  it('sends the shop the enquiry with a Reply-To of the sender, so Reply answers them', async () => {
    const sender = newAddress();
    await send(enquiry(sender.toUpperCase(), { message: 'Do you repair tablas? See https://example.com/tabla' }));
    const [copy, ...more] = (await mailTo(t.config.shop.email)).filter((m) => m.raw.includes(sender.toUpperCase()));
    expect(more).toEqual([]);
    expect(copy!.subject).toBe('Enquiry from Asha Patel');
    // As typed (the domain in lower case, as mail software writes it).
    expect(header(copy!, 'Reply-To')?.toLowerCase()).toBe(sender);
    expect(header(copy!, 'From')).toContain(t.config.shop.email);
    expect(body(copy!)).toContain('Do you repair tablas? See https://example.com/tabla');
    expect(body(copy!)).toContain('0121 496 0000');
  });

  it("shows a name written as a MIME encoded-word as typed in the shop's subject, not decoded", async () => {
    // "=?utf-8?b?...?=" in a plain subject is decoded by every mail program: the name would show
    // as any text the sender chose ("Refund approved", say), not what the form took.
    const sender = newAddress();
    const disguise = `=?utf-8?b?${Buffer.from('Refund approved').toString('base64')}?=`;
    await send(enquiry(sender, { name: disguise }));
    const [copy] = (await mailTo(t.config.shop.email)).filter((m) => m.raw.includes(sender));
    // The header unfolded, then each encoded-word decoded as a mail program shows it.
    const subject = /^Subject: (.*(?:\n[ \t].*)*)/im.exec(copy!.raw)![1]!.replace(/\r?\n[ \t]+/g, ' ');
    const shown = subject.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, encoding: string, text: string) =>
      encoding.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replaceAll('_', ' ')
              .replace(/=([0-9a-f]{2})/gi, (_hex, code: string) => String.fromCharCode(parseInt(code, 16))),
            'latin1',
          ).toString('utf8'),
    );
    expect(shown).not.toContain('Refund approved');
    expect(shown.replace(/\u200b/g, '')).toBe(`Enquiry from ${disguise}`);
  });

  it('takes a contact number as people write one, and refuses what cannot be called', async () => {
    for (const phone of ['0121 496 0000', '+44 (0)121 496 0000', '(0121) 496-0000', '+91 98765 43210']) {
      expect((await send(enquiry(newAddress(), { phone }))).statusCode, phone).toBe(200);
    }
    for (const phone of ['call me', 'n/a', '0121 496 0000 or email']) {
      const answer = await send(enquiry(newAddress(), { phone }));
      expect(answer.statusCode, phone).toBe(400);
      expect(answer.json().error.fields, phone).toEqual([
        { field: 'phone', message: 'Please provide a valid contact number' },
      ]);
    }
  });

  it('refuses a line break in the name, e-mail or telephone, so no header can be added', async () => {
    const victim = newAddress();
    const attacks = [
      { field: 'name', value: `Asha\r\nBcc: ${victim}` },
      { field: 'name', value: `Asha\nBcc: ${victim}` },
      { field: 'email', value: `${newAddress()}\r\nBcc: ${victim}` },
      { field: 'phone', value: `0121\r\nBcc: ${victim}` },
    ];
    for (const { field, value } of attacks) {
      const answer = await send(enquiry(newAddress(), { [field]: value }));
      expect(answer.statusCode, `${field}: ${JSON.stringify(value)}`).toBe(400);
      expect([...new Set(answer.json().error.fields.map((f: { field: string }) => f.field))]).toEqual([field]);
    }
    // Quotes, commas and angle brackets in a name stay text: Reply-To and To name one address each.
    const sender = newAddress();
    const name = `"Boss" <${victim}>, ${victim}`;
    expect((await send(enquiry(sender, { name }))).statusCode).toBe(200);
    const mail = await deliveredMail(t);
    expect(mail.some((m) => m.raw.toLowerCase().includes(`\nbcc:`))).toBe(false);
    expect(mail.filter((m) => m.to.includes(victim))).toEqual([]);
    const copy = mail.find((m) => m.to === t.config.shop.email && m.raw.includes(sender))!;
    expect(header(copy, 'Reply-To')).toBe(sender);
    expect(header(copy, 'To')).toBe(t.config.shop.email);
  });

  it('acknowledges one address a few times a day, answering every sender alike', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const victim = newAddress();
    const [local, domain] = victim.split('@');
    // The same mailbox written differently, from a different client each time.
    const variants = [victim, victim.toUpperCase(), `${local}+x@${domain}`, victim, victim, victim];
    const answers = [];
    for (const address of variants) {
      const answer = await send(enquiry(address));
      answers.push({ status: answer.statusCode, body: answer.body, type: answer.headers['content-type'] });
    }
    // A stranger cannot tell from the answer whether an acknowledgement went.
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: 200, body: '{"ok":true}' });
    const acks = async () =>
      (await deliveredMail(t)).filter(
        (m) => m.to.toLowerCase().replace('+x@', '@') === victim && m.subject.startsWith('We have your message'),
      );
    expect(await acks()).toHaveLength(3);
    // Every enquiry still reaches the shop, and is kept.
    const copies = (await mailTo(t.config.shop.email)).filter((m) => m.raw.toLowerCase().includes(local!));
    expect(copies).toHaveLength(variants.length);
    // A day later the address is acknowledged again.
    vi.setSystemTime(Date.now() + 24 * 3_600_000 + 1_000);
    await send(enquiry(victim));
    expect(await acks()).toHaveLength(4);
  });

  it('limits one client per day as well as per minute, saying when to try again', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 86_400_000 });
    const ip = nextIp();
    const statuses: number[] = [];
    // Three a minute stays within the per-minute limit; the day's limit is reached all the same.
    for (let i = 0; i < 20; i++) {
      statuses.push((await send(enquiry(newAddress()), ip)).statusCode);
      vi.setSystemTime(Date.now() + 20_000);
    }
    expect(statuses).toEqual(Array(20).fill(200));
    const refused = await send(enquiry(newAddress()), ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3_600);
    expect(refused.json().error.message).toMatch(/tomorrow|hours/);
    // Another client is not held back by it, and this one may write again the next day.
    expect((await send(enquiry(newAddress()))).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + 24 * 3_600_000);
    expect((await send(enquiry(newAddress()), ip)).statusCode).toBe(200);
  });
});
