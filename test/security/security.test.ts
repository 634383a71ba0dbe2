import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commitResponseSchema } from '../../src/contract/basket.ts';
import { catalogFactory } from '../helpers/catalog-factory.ts';
import { address, checkoutFixtures, commitBody, guest } from '../helpers/checkout-fixtures.ts';
import { decodeQuotedPrintable, deliveredMail } from '../helpers/outbox.ts';
import { startSlowSmtp, type SlowSmtpServer } from '../helpers/slow-smtp.ts';
import { REGISTRATION_PASSWORD, registrationBody } from '../helpers/registration.ts';
import { routesOf } from '../helpers/routes.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { verifyPassword } from '../../src/server/accounts/passwords.ts';

// The real password check, watched: the sign-in test counts what each attempt costs.
vi.mock('../../src/server/accounts/passwords.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/accounts/passwords.ts')>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});

/**
 * Security checks as tests (docs/rules.md#security): CSRF on every state-changing call, sessions, enumeration,
 * injection, throttling and other customers' data. XSS in rendered pages is covered here for the
 * server's HTML and in test/e2e/security.spec.ts for the browser.
 */
const PASSWORD = REGISTRATION_PASSWORD;
let ipCounter = 0;
const nextIp = () => `203.0.113.${(++ipCounter % 250) + 1}`;

describe('security', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  beforeAll(async () => {
    t = await createTestApp();
    fx = await checkoutFixtures(t.db);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers, remoteAddress: nextIp() });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers, remoteAddress: nextIp() });
  let emails = 0;
  const newEmail = () => `security${++emails}.${Date.now()}@example.com`;
  async function customer(): Promise<{ email: string; token: string }> {
    const email = newEmail();
    await post('/api/register', registrationBody(email));
    const mail = (await deliveredMail(t)).filter((m) => m.to === email).at(-1);
    const token = /\/verify-account\/([A-Za-z0-9_-]+)/.exec(decodeQuotedPrintable(mail?.raw ?? ''))?.[1];
    expect((await post('/api/activate', { token })).statusCode).toBe(200);
    const signedIn = await post('/api/sign-in', { username: email, password: PASSWORD });
    return { email, token: signedIn.json() as string };
  }

  it('refuses every state-changing API call without the CSRF token, or with a wrong one', async () => {
    const unsafe = routesOf(t.server.printRoutes({ commonPrefix: false })).filter(
      ([method, path]) => !['GET', 'HEAD', 'OPTIONS'].includes(method) && path.startsWith('/api/'),
    );
    // Every form the shop posts is here; only PayPal's IPN is exempt, as its own protocol checks it.
    expect(unsafe.map(([, path]) => path)).toEqual(
      expect.arrayContaining(['/api/basket', '/api/sign-in', '/api/account', '/api/contact', '/api/account/password']),
    );
    expect(unsafe.length).toBeGreaterThanOrEqual(12);
    const { token } = await customer();
    for (const [method, path] of unsafe) {
      if (path === '/api/payments/paypal/ipn') continue;
      const url = path.replace(/:(\w+)/g, '1');
      const bare = await t.server.inject({ method: method as 'POST', url, payload: {}, remoteAddress: nextIp() });
      expect(bare.statusCode, `${method} ${path} without a token`).toBe(403);
      const wrong = await t.server.inject({
        method: method as 'POST',
        url,
        payload: {},
        headers: {
          cookie: `XSRF-TOKEN=right-token; sid=${token}`,
          'x-xsrf-token': 'wrong-token',
          authorization: `Bearer ${token}`,
        },
        remoteAddress: nextIp(),
      });
      expect(wrong.statusCode, `${method} ${path} with a wrong token`).toBe(403);
    }
  });

  it('gives a new session at each sign-in, ignoring one the client brought, and ends it at sign-out', async () => {
    const { email } = await customer();
    const planted = 'AttackerChosenSessionIdAttackerChosenSess01';
    const signedIn = await post('/api/sign-in', { username: email, password: PASSWORD }, { cookie: `sid=${planted}` });
    const sid = signedIn.cookies.find((c) => c.name === 'sid')?.value;
    expect(sid).toBeDefined();
    expect(sid).not.toBe(planted);
    expect((await get('/api/who-am-i', { cookie: `sid=${planted}` })).statusCode).toBe(401);
    const again = (await post('/api/sign-in', { username: email, password: PASSWORD })).json() as string;
    expect(again).not.toBe(sid);
    expect((await get('/api/who-am-i', { cookie: `sid=${sid}` })).statusCode).toBe(200);
    expect((await post('/api/sign-out', {}, { cookie: `sid=${sid}` })).statusCode).toBe(200);
    expect((await get('/api/who-am-i', { cookie: `sid=${sid}` })).statusCode).toBe(401);
    expect((await get('/api/who-am-i', { authorization: `Bearer ${sid}` })).statusCode).toBe(401);
    expect((await get('/api/who-am-i', { authorization: `Bearer ${again}` })).statusCode).toBe(200);
  });

  it('ends a session when it expires', async () => {
    const { token } = await customer();
    expect((await get('/api/account', { authorization: `Bearer ${token}` })).statusCode).toBe(200);
    await t.db.kysely
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await get('/api/account', { authorization: `Bearer ${token}` })).statusCode).toBe(401);
    expect((await get('/api/who-am-i', { cookie: `sid=${token}` })).statusCode).toBe(401);
  });

  it('answers sign-in and password reset alike, with the same password work, for known and unknown addresses', async () => {
    const { email } = await customer();
    const unknown = 'never.registered@example.com';
    // What an address costs to try is the scrypt check it runs: one, at the same cost, known or not
    // (the time it takes is measured by nothing here: a busy machine makes timings lie).
    const checks = vi.mocked(verifyPassword);
    const attempt = async (username: string) => {
      checks.mockClear();
      const answer = await post('/api/sign-in', { username, password: 'Wrong-password-1' });
      const costs = checks.mock.calls.map(([, stored]) => stored.split('$').slice(0, 4).join('$'));
      return { status: answer.statusCode, body: answer.body, costs };
    };
    for (let i = 0; i < 3; i++) {
      const a = await attempt(email);
      const b = await attempt(unknown);
      expect(a.status).toBe(401);
      expect(b.status).toBe(401);
      expect(b.body).toBe(a.body);
      expect(a.costs).toEqual(['scrypt$32768$8$1']);
      expect(b.costs).toEqual(a.costs);
    }
    const resetKnown = await post('/api/forgot-password', { email });
    const resetUnknown = await post('/api/forgot-password', { email: unknown });
    expect(resetKnown.statusCode).toBe(200);
    expect(resetUnknown.body).toBe(resetKnown.body);
  });

  const injections = [
    "' OR '1'='1",
    "'; DROP TABLE products; --",
    '" OR ""="',
    '1) UNION SELECT password_hash, email FROM customers --',
    "%' AND 1=0 UNION SELECT NULL --",
    '\\x00\u0000',
  ];

  it('answers SQL injection attempts in every text input normally, and the tables stay whole', async () => {
    const make = catalogFactory(t.db);
    const type = await make.type();
    const brand = await make.brand();
    await make.product({
      typeId: type.id,
      brandId: brand.id,
      title: 'Brass Dhol',
      stocks: [{ price: 5000, stock: 3 }],
    });
    const countBefore = await t.db.kysely
      .selectFrom('products')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const p = await fx.product(1000, 50);
    for (const attack of injections) {
      const answers = [
        await post('/api/search', { title: attack }),
        await get(`/api/products/${encodeURIComponent(attack)}`),
        await get(`/api/recover-basket/${encodeURIComponent(attack)}`),
        await get(`/api/order-status/${encodeURIComponent(attack)}`),
        await post('/api/sign-in', { username: attack, password: attack }),
        await post('/api/forgot-password', { email: attack }),
        await post('/api/verify-basket', {
          items: [{ productStockId: p.stockId, requestedQty: 1 }],
          voucherCodeAttempt: attack,
        }),
        await post('/api/contact', { email: 'a@example.com', name: attack, phone: '01214960000', message: attack }),
        await post(
          '/api/basket',
          commitBody([{ productStockId: p.stockId, requestedQty: 1 }], {
            guest: { ...guest, firstname: attack.slice(0, 50), lastname: attack.slice(0, 50) },
            billingAddress: { ...address, line1: attack, townCity: attack.slice(0, 60) },
          }),
        ),
      ];
      for (const answer of answers) expect(answer.statusCode, answer.body).toBeLessThan(500);
      // The quotes and operators are only text: the search finds what its words alone find.
      if (attack.includes('\u0000')) {
        // No field needs a NUL character, and PostgreSQL cannot store one: refused by name.
        expect(answers[0]!.statusCode).toBe(400);
        expect(answers[0]!.json().error.fields).toEqual([{ field: 'title', message: expect.any(String) }]);
        continue;
      }
      const words = (await post('/api/search', { title: attack.replace(/[^\p{L}\p{N}]+/gu, ' ') })).json();
      expect((answers[0]!.json() as { totalResults: number }).totalResults).toBe(words.totalResults);
      expect(answers[4]!.statusCode).toBe(401);
    }
    const countAfter = await t.db.kysely
      .selectFrom('products')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(countAfter.n)).toBe(Number(countBefore.n) + 1);
    // Injected text is stored as text.
    const stored = await t.db.kysely
      .selectFrom('orders')
      .select('billing_line1')
      .where('billing_line1', '=', injections[1]!)
      .execute();
    expect(stored.length).toBe(1);
  });

  it('keeps names and address lines on one line, so a shopper cannot forge lines in the shop’s e-mails', async () => {
    // The shop's e-mails print a name or an address line each as one line: the new-order message
    // lists one order a line, so a line break in a surname would add an order of the shopper's writing.
    const p = await fx.product(1000, 50);
    const forged = 'Shopper\r\nOrder 100099: A Buyer, £9,999.00, to B1 1AA: https://evil.example/admin';
    for (const [details, field] of [
      [{ guest: { ...guest, lastname: forged.slice(0, 50) } }, 'guest.lastname'],
      [{ guest: { ...guest, firstname: 'Ann\nBcc: x@evil.example' } }, 'guest.firstname'],
      [{ deliveryAddress: { ...address, line1: '1 High St\nOrder 100099' } }, 'deliveryAddress.line1'],
      [{ billingAddress: { ...address, line2: 'Flat 2\rBlock B' } }, 'billingAddress.line2'],
      [{ deliveryAddress: { ...address, townCity: 'Leeds\u0007' } }, 'deliveryAddress.townCity'],
    ] as const) {
      const answer = await post('/api/basket', commitBody([{ productStockId: p.stockId, requestedQty: 1 }], details));
      expect(answer.statusCode, field).toBe(400);
      expect(answer.json().error.fields.map((f: { field: string }) => f.field)).toEqual([field]);
    }
  });

  it('keeps an account’s names and address lines on one line too (they are printed in its e-mails)', async () => {
    const registered = await post('/api/register', {
      ...registrationBody(newEmail()),
      firstname: 'Ann\nBcc: x@evil.example',
    });
    expect(registered.statusCode).toBe(400);
    expect(registered.json().error.fields.map((f: { field: string }) => f.field)).toEqual(['firstname']);

    const { token } = await customer();
    const address = {
      line1: '7 Temple Road',
      line2: 'Handsworth',
      line3: '',
      postcode: 'B21 9AA',
      townCity: 'Birmingham',
      countryId: 1,
    };
    const details = {
      titleId: 1,
      firstname: 'Priya',
      lastname: 'Sharma',
      contactNumber: '0121 496 0100',
      billingAddress: address,
      deliveryAddress: address,
    };
    for (const [change, field] of [
      [{ lastname: 'Sharma\r\nOrder 100099' }, 'lastname'],
      [{ deliveryAddress: { ...address, line1: '7 Temple Road\nOrder 100099' } }, 'deliveryAddress.line1'],
      [{ billingAddress: { ...address, townCity: 'Birmingham\u0007' } }, 'billingAddress.townCity'],
    ] as const) {
      const saved = await t.app.inject({
        method: 'PUT',
        url: '/api/account',
        payload: { ...details, ...change },
        headers: { authorization: `Bearer ${token}` },
        remoteAddress: nextIp(),
      });
      expect(saved.statusCode, field).toBe(400);
      expect(saved.json().error.fields.map((f: { field: string }) => f.field)).toEqual([field]);
    }
  });

  it('makes order codes unguessable and throttles recovery attempts from one address', async () => {
    const p = await fx.product(1000, 50);
    const codes = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const result = commitResponseSchema.parse(
        (await post('/api/basket', commitBody([{ productStockId: p.stockId, requestedQty: 1 }]))).json(),
      );
      if (!result.ok) throw new Error('expected an order');
      expect(result.orderCode).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      codes.add(result.orderCode);
    }
    expect(codes.size).toBe(5);
    const ip = '198.51.100.200';
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const guess = `GuessGuessGuessGuess${String(i).padStart(2, '0')}`;
      statuses.push(
        (await t.app.inject({ method: 'GET', url: `/api/recover-basket/${guess}`, remoteAddress: ip })).statusCode,
      );
    }
    expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(statuses[30]).toBe(429);
    const [real] = [...codes];
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/recover-basket/${real}`, remoteAddress: ip })).statusCode,
    ).toBe(429);
  });

  it("shows no one another customer's orders or addresses", async () => {
    const alice = await customer();
    const bob = await customer();
    const p = await fx.product(1500, 10);
    const bobsOrder = commitResponseSchema.parse(
      (
        await post(
          '/api/basket',
          commitBody([{ productStockId: p.stockId, requestedQty: 1 }], {
            billingAddress: { ...address, line1: '99 Private Lane' },
          }),
          { authorization: `Bearer ${bob.token}` },
        )
      ).json(),
    );
    if (!bobsOrder.ok) throw new Error('expected an order');
    const alicesOrders = await get('/api/account/orders', { authorization: `Bearer ${alice.token}` });
    expect(alicesOrders.statusCode).toBe(200);
    expect(alicesOrders.body).not.toContain(String(bobsOrder.orderNumber));
    expect((await get('/api/account', { authorization: `Bearer ${alice.token}` })).body).not.toContain('Private Lane');
    const bobsOrders = await get('/api/account/orders', { authorization: `Bearer ${bob.token}` });
    expect(bobsOrders.body).toContain(String(bobsOrder.orderNumber));
    // Without a session, nothing of an account answers.
    for (const url of ['/api/account', '/api/account/orders', '/api/who-am-i'])
      expect((await get(url)).statusCode).toBe(401);
    // The order's status by its code says nothing about who placed it.
    const status = await get(`/api/order-status/${bobsOrder.orderCode}`);
    expect(status.body).not.toMatch(/Private Lane|Asha|example\.com/i);
    // The card handoff is built only for whoever holds the order's code, not from its number alone.
    const numberAlone = await get(`/api/sagepay-config/${bobsOrder.orderNumber}`);
    expect(numberAlone.statusCode).toBe(400);
    expect(numberAlone.json().error.fields[0].field).toBe('code');
    expect((await get(`/api/sagepay-config/${bobsOrder.orderNumber}?code=${'A'.repeat(22)}`)).statusCode).toBe(404);
    expect((await get(`/api/sagepay-config/${bobsOrder.orderNumber}?code=${bobsOrder.orderCode}`)).statusCode).toBe(
      200,
    );
  });

  it('keeps markup in product text and addresses out of the HTML it writes', async () => {
    const make = catalogFactory(t.db);
    const type = await make.type();
    const brand = await make.brand();
    const product = await make.product({
      typeId: type.id,
      brandId: brand.id,
      title: 'Dhol <script>alert(1)</script>',
      description: '<img src=x onerror=alert(2)> Loud',
      stocks: [{ price: 5000, stock: 3 }],
    });
    const sitemap = await get('/sitemap.xml');
    expect(sitemap.body).not.toContain('<script>');
    // A searched keyword written into a page's head: src/server/seo/pages.test.ts, with a built page.
    const page = await get(`/products/${product.urlKey}`);
    expect(page.body).not.toContain('<script>alert(1)');
    expect(page.body).not.toContain('<img src=x');
    // The sandbox pages show the order's lines: escaped there too.
    const p = await fx.product(1000, 5);
    await t.db.kysely
      .updateTable('products')
      .set({ title: '<script>alert(4)</script>' })
      .where('id', '=', p.id)
      .execute();
    const result = commitResponseSchema.parse(
      (await post('/api/basket', commitBody([{ productStockId: p.stockId, requestedQty: 1 }]))).json(),
    );
    if (!result.ok) throw new Error('expected an order');
    const handoff = (await get(`/api/paypal-handoff/${result.orderCode}`)).json() as {
      fields: Array<{ name: string; value: string }>;
    };
    const sandbox = await t.app.inject({
      method: 'POST',
      url: '/sandbox/paypal/webscr',
      payload: new URLSearchParams(handoff.fields.map((f): [string, string] => [f.name, f.value])).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(sandbox.statusCode).toBe(200);
    expect(sandbox.body).not.toContain('<script>alert(4)');
  });
});

/**
 * With a mail server that has not answered yet, forgot-password must answer for a registered address
 * as for an unknown one, without waiting for it (it once waited for SMTP: about 200 ms against
 * 3 ms), and the mail must still go once the server answers (docs/rules.md#accounts-and-sessions).
 */
describe('security with a slow mail server', () => {
  let smtp: SlowSmtpServer;
  let t: TestApp;
  beforeAll(async () => {
    // Holds every connection until released: an answer that waited for mail would never come.
    smtp = await startSlowSmtp({ greetingDelayMs: Infinity });
    t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, payload, remoteAddress: nextIp() });

  it('answers forgot-password for registered and unknown addresses alike while the mail server says nothing, and the reset mail still arrives', async () => {
    const email = `slow.smtp.${Date.now()}@example.com`;
    const unknown = `never.registered.${Date.now()}@example.com`;
    const registered = await post('/api/register', registrationBody(email));
    expect(registered.json()).toEqual({ errorCode: 0 });
    for (let i = 0; i < 5; i++) {
      const a = await post('/api/forgot-password', { email });
      const b = await post('/api/forgot-password', { email: unknown });
      expect(a.statusCode).toBe(200);
      expect(b.body).toBe(a.body);
    }
    // Every answer came while the server had greeted no one: nothing was delivered yet.
    expect(smtp.received).toHaveLength(0);
    smtp.release();
    // The reset mail (and the verification mail) are delivered once it answers, and none to the stranger.
    await vi.waitFor(
      () => {
        const resets = smtp.received.filter((m) => m.to.includes(email) && m.data.includes('/reset-password/'));
        expect(resets).toHaveLength(5);
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(smtp.received.some((m) => m.to.includes(email) && m.data.includes('/verify-account/'))).toBe(true);
    expect(smtp.received.some((m) => m.to.includes(unknown))).toBe(false);
  }, 30_000);

  it('answers registration, contact, forgot-password and a payment notification at once while the mail server hangs', async () => {
    const hung = await startSlowSmtp({ greetingDelayMs: Infinity });
    const stuck = await createTestApp({
      env: { SMTP_URL: hung.url },
      paymentFetch: (async () => new Response('VERIFIED')) as unknown as typeof fetch,
    });
    try {
      // No timers: an answer that waited for the hung server would never come, and the test fails.
      const answerTo = async (url: string, payload: object) =>
        (await stuck.app.inject({ method: 'POST', url, payload, remoteAddress: nextIp() })).statusCode;
      const email = `hung.smtp.${Date.now()}@example.com`;
      const calls = [
        await answerTo('/api/register', registrationBody(email)),
        await answerTo('/api/contact', { email, name: 'Meera', phone: '0121 496 0000', message: 'Hello?' }),
        await answerTo('/api/forgot-password', { email }),
      ];
      expect(calls).toEqual([200, 200, 200]);
      // A paid order's notification (which e-mails the confirmation) is answered at once too.
      const fixtures = await checkoutFixtures(stuck.db);
      const product = await fixtures.product(2500, 5);
      const order = commitResponseSchema.parse(
        (
          await stuck.app.inject({
            method: 'POST',
            url: '/api/basket',
            payload: commitBody([{ productStockId: product.stockId, requestedQty: 1 }], { guest: { ...guest, email } }),
            remoteAddress: nextIp(),
          })
        ).json(),
      );
      if (!order.ok) throw new Error('expected an order');
      const { total_including_delivery: total } = await stuck.db.kysely
        .selectFrom('orders')
        .select('total_including_delivery')
        .where('order_code', '=', order.orderCode)
        .executeTakeFirstOrThrow();
      const ipn = await stuck.app.inject({
        method: 'POST',
        url: '/api/payments/paypal/ipn',
        payload: new URLSearchParams({
          mc_gross: (total / 100).toFixed(2),
          invoice: String(order.orderNumber),
          payment_status: 'Completed',
          txn_id: `TXN${Date.now()}`,
          mc_currency: 'GBP',
          receiver_email: stuck.config.paypal.businessEmail,
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(ipn.statusCode).toBe(200);
      const paid = await stuck.db.kysely
        .selectFrom('orders')
        .select('status')
        .where('order_code', '=', order.orderCode)
        .executeTakeFirstOrThrow();
      expect(paid.status).toBe('paid');
      // The messages wait in the queue for the server to answer; none is lost.
      const queued = () => stuck.db.kysely.selectFrom('mail_queue').select(['recipient', 'status']).execute();
      // Verification, acknowledgement, reset link and order confirmation.
      await vi.waitFor(async () => expect((await queued()).filter((m) => m.recipient === email)).toHaveLength(4));
      expect((await queued()).every((m) => m.status !== 'sent')).toBe(true);
      expect(hung.connections()).toBeGreaterThan(0);
    } finally {
      await stuck.close();
      await hung.close();
    }
  }, 30_000);
});
