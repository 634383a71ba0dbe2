import { afterEach, describe, expect, it } from 'vitest';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import { backOffice, paidByCard, placeOrder, shopForPayments } from '../../../test/helpers/paid-orders.ts';
import { decodeQuotedPrintable, deliveredMail } from '../../../test/helpers/outbox.ts';
import { manualClock } from '../../../test/helpers/clock.ts';
import { registrationBody } from '../../../test/helpers/registration.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { testDialect } from '../../../test/helpers/test-db.ts';

/**
 * The owner's settings (issue 37 item 3, DESIGN.md §11): stored in the database, seeded from the
 * environment on the first start only, changed by an owner alone, and seen by every instance
 * within its cache window (a clock the test moves on, never a sleep).
 */
describe('shop settings', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const settingsOf = async (app: TestApp, cookie: string) => {
    const answer = await backOffice(app, cookie).call('GET', '/settings');
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };

  it('lets an owner change the VAT number, audited, and the next invoice prints it', async () => {
    const shop = await shopForPayments({ PAYMENT_PROVIDER: 'opayo', LOG_LEVEL: 'error' }, injectedPaypal());
    t = shop.t;
    const owner = await staffMember(t, 'owner');
    const before = await settingsOf(t, owner.cookie);
    expect(before.vatNumber).toBe('GB123456789');
    const saved = await backOffice(t, owner.cookie).call('PUT', '/settings', {
      ...before,
      vatNumber: 'gb 111 2223 33',
      name: 'Tabla House',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().vatNumber).toBe('GB111222333');
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'settings.update')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.before).toContain('GB123456789');
    expect(audit[0]!.after).toContain('GB111222333');

    const p = await shop.fx.product(2500, 5);
    const { orderNumber } = await paidByCard(t, p.stockId, 1);
    const invoice = await t.db.kysely
      .selectFrom('invoices')
      .select('document')
      .where('order_number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(invoice.document).seller).toMatchObject({ vatNumber: 'GB111222333', name: 'Tabla House' });
    // The order's e-mail comes from the new name and prints the new VAT number.
    const mail = (await deliveredMail(t)).find((m) => m.to === 'asha@example.com' || m.subject.includes('confirmed'));
    expect(mail?.raw).toMatch(/^From: "?Tabla House"? </m);
    expect(decodeQuotedPrintable(mail!.raw)).toContain('GB111222333');
  });

  it('refuses staff who are not owners, and names the field of a bad value', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
    const staff = await staffMember(t, 'staff');
    const owner = await staffMember(t, 'owner');
    const current = await settingsOf(t, owner.cookie);
    const refused = await backOffice(t, staff.cookie).call('PUT', '/settings', { ...current, name: 'Not mine' });
    expect(refused.statusCode).toBe(403);
    const bad = await backOffice(t, owner.cookie).call('PUT', '/settings', { ...current, vatNumber: 'FR123' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual([expect.objectContaining({ field: 'vatNumber' })]);
    const badMail = await backOffice(t, owner.cookie).call('PUT', '/settings', { ...current, ordersEmail: 'nope' });
    expect(badMail.statusCode).toBe(400);
    expect(badMail.json().error.fields[0].field).toBe('ordersEmail');
    expect((await settingsOf(t, owner.cookie)).name).toBe(current.name);
  });

  it('refuses a shop name that is not one line of whole characters, so two-factor set-up still works', async () => {
    // An outside attack: a lone UTF-16 surrogate in the name made every two-factor set-up a 500
    // (it goes into the authenticator app's otpauth:// address), and line breaks or a right-to-left
    // override stayed for good in the credit notes issued meanwhile.
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
    const owner = await staffMember(t, 'owner');
    const current = await settingsOf(t, owner.cookie);
    for (const [field, value] of [
      ['name', 'Raag \ud800 Shop'],
      ['name', 'Raag\r\nShop'],
      ['name', 'Raag \u202e pohS'],
      ['address', '1 High Street\nLeeds'],
      // Each part is a line of every document: 150 made an invoice five pages long.
      ['address', Array.from({ length: 150 }, () => 'a').join(',')],
      ['phone', '0113 \udc00 496 0000'],
    ] as const) {
      const answer = await backOffice(t, owner.cookie).call('PUT', '/settings', { ...current, [field]: value });
      expect({ field, value, status: answer.statusCode }).toEqual({ field, value, status: 400 });
      expect(answer.json().error.fields[0].field).toBe(field);
    }
    const setup = await backOffice(t, owner.cookie).call('POST', '/me/totp/setup', {});
    expect(setup.statusCode, setup.body).toBe(200);
  });

  it('takes the environment as a default on the first start only', async () => {
    t = await createTestApp({ env: { SHOP_NAME: 'First Start Drums', RATE_LIMIT_FACTOR: '100' } });
    const owner = await staffMember(t, 'owner');
    expect((await settingsOf(t, owner.cookie)).name).toBe('First Start Drums');
    // Another start on the same database with other variables: the stored values stand.
    const again = await createSecondInstance(t, {
      config: { shop: { ...t.config.shop, name: 'Changed In Env', phone: '0000' } },
    });
    try {
      const shop = await again.app.inject({ method: 'GET', url: '/api/shop' });
      expect(shop.json()).toMatchObject({ name: 'First Start Drums', phone: '0121 496 0742' });
    } finally {
      await again.close();
    }
  });

  it('sends a contact enquiry to the e-mail address the owner set, from the name they set', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
    const owner = await staffMember(t, 'owner');
    const current = await settingsOf(t, owner.cookie);
    const saved = await backOffice(t, owner.cookie).call('PUT', '/settings', {
      ...current,
      name: 'Dhol Corner',
      email: 'desk@dhol.example',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { email: 'asha@example.com', name: 'Asha Patel', phone: '0121 496 0000', message: 'Repairs?' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const mail = await deliveredMail(t);
    expect(mail.map((m) => m.to)).toContain('desk@dhol.example');
    const ack = mail.find((m) => m.to === 'asha@example.com');
    expect(ack?.subject).toBe('We have your message - Dhol Corner');
    expect(ack?.raw).toMatch(/^From: "?Dhol Corner"? <desk@dhol\.example>/m);
  });

  it('names the shop as the owner set it in staff e-mails, the two-factor app and the payment page', async () => {
    const paypal = injectedPaypal();
    const created: Array<{ purchase_units: Array<{ description: string }>; payment_source?: object }> = [];
    paypal.state.intercept = async (url, init, forward) => {
      if (url.endsWith('/v2/checkout/orders') && init?.method === 'POST') created.push(JSON.parse(String(init.body)));
      return forward();
    };
    const shop = await shopForPayments({ PAYPAL_INTEGRATION: 'checkout', LOG_LEVEL: 'error' }, paypal);
    t = shop.t;
    const owner = await staffMember(t, 'owner');
    const current = await settingsOf(t, owner.cookie);
    const saved = await backOffice(t, owner.cookie).call('PUT', '/settings', { ...current, name: 'Dhol Corner' });
    expect(saved.statusCode, saved.body).toBe(200);

    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/admin/forgot-password',
      payload: { email: owner.email },
    });
    expect(forgot.statusCode, forgot.body).toBe(200);
    const mail = await deliveredMail(t);
    expect(mail.find((m) => m.to === owner.email)?.subject).toBe(
      'Choose a new password for the Dhol Corner back office',
    );

    const shopper = 'asha.dhol@example.com';
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: registrationBody(shopper),
    });
    expect(registered.json()).toEqual({ errorCode: 0 });
    expect((await deliveredMail(t)).find((m) => m.to === shopper)?.subject).toBe(
      'Please confirm your e-mail address for Dhol Corner',
    );

    const totp = await backOffice(t, owner.cookie).call('POST', '/me/totp/setup');
    expect(totp.statusCode, totp.body).toBe(200);
    expect(decodeURIComponent(totp.json().otpauthUrl)).toContain('issuer=Dhol Corner back office');

    const order = await placeOrder(t, (await shop.fx.product(2500, 5)).stockId);
    const handoff = await t.app.inject({ method: 'GET', url: `/api/payment-handoff/${order.orderCode}` });
    expect(handoff.statusCode, handoff.body).toBe(200);
    expect(created.at(-1)!.purchase_units[0]!.description).toBe(`Dhol Corner order ${order.orderNumber}`);
    expect(JSON.stringify(created.at(-1))).toContain('"brand_name":"Dhol Corner"');
  });

  // Two instances share a database on PostgreSQL only (two SQLite connections in one process deadlock).
  if (testDialect === 'postgres')
    it('reaches another instance after its cache window', async () => {
      t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
      const clock = manualClock();
      const second = await createSecondInstance(t, { now: clock.now });
      try {
        const owner = await staffMember(t, 'owner');
        const shopOnSecond = async () => (await second.app.inject({ method: 'GET', url: '/api/shop' })).json();
        expect((await shopOnSecond()).phone).toBe('0121 496 0742');
        const current = await settingsOf(t, owner.cookie);
        const saved = await backOffice(t, owner.cookie).call('PUT', '/settings', {
          ...current,
          phone: '0121 000 1111',
        });
        expect(saved.statusCode, saved.body).toBe(200);
        // The instance that saved shows it at once.
        expect((await t.app.inject({ method: 'GET', url: '/api/shop' })).json().phone).toBe('0121 000 1111');
        clock.advance(1_000);
        expect((await shopOnSecond()).phone).toBe('0121 496 0742');
        clock.advance(3_000);
        expect((await shopOnSecond()).phone).toBe('0121 000 1111');
      } finally {
        await second.close();
      }
    });
});
