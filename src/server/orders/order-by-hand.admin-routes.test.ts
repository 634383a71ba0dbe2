import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import { decodeQuotedPrintable, deliveredMail } from '../../../test/helpers/outbox.ts';
import { backOffice, orderRow, paidByCard, placeOrder, shopForPayments } from '../../../test/helpers/paid-orders.ts';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { testDialect } from '../../../test/helpers/test-db.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { mailShopNewOrders } from './new-order-mail.ts';

/**
 * Working an order by hand (docs/back-office.md#orders): a note staff keep on it, new delivery
 * details before it is sent (checked as checkout checks them), and the confirmation sent again;
 * each in the order's timeline and audited.
 */
describe('working an order by hand', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  const opayo = injectedPaypal();

  beforeAll(async () => {
    ({ t, fx, cookie } = await shopForPayments({ PAYMENT_PROVIDER: 'opayo' }, opayo));
  });
  afterAll(() => t.close());

  const office = () => backOffice(t, cookie);
  const call = (method: 'POST' | 'PUT', url: string, payload?: object) => office().call(method, url, payload);

  async function paidOrder() {
    const p = await fx.product(2500, 10);
    return paidByCard(t, p.stockId);
  }

  const newDetails = {
    deliveryAddress: { line1: '3 Temple Row', line2: 'Flat 2', townCity: 'Birmingham', postcode: 'b2 5ht' },
    contactNumber: '0121 496 0999',
    email: 'asha.kaur@example.org',
  };

  it('keeps a staff note in the timeline and the audit log, and mails the customer nothing of it', async () => {
    const { orderNumber } = await paidOrder();
    const mailBefore = (await deliveredMail(t)).length;
    const noted = await call('POST', `/orders/${orderNumber}/notes`, { note: 'Customer asked for gift wrap' });
    expect(noted.statusCode, noted.body).toBe(200);
    expect(noted.json().timeline.map((entry: { text: string }) => entry.text)).toContainEqual(
      expect.stringMatching(/^Note: Customer asked for gift wrap by staff/),
    );
    expect(noted.json().audit.at(-1)).toMatchObject({
      action: 'order.note',
      after: { note: 'Customer asked for gift wrap' },
    });
    expect((await deliveredMail(t)).length).toBe(mailBefore);

    const empty = await call('POST', `/orders/${orderNumber}/notes`, { note: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(JSON.stringify(empty.json())).toContain('note');
  });

  it('changes where a parcel not yet sent goes, checked as at checkout, and audits before and after', async () => {
    const { orderNumber } = await paidOrder();
    expect((await office().order(orderNumber)).actions).toContain('change-delivery-details');
    const changed = await call('PUT', `/orders/${orderNumber}/delivery-details`, newDetails);
    expect(changed.statusCode, changed.body).toBe(200);
    const row = await orderRow(t, orderNumber);
    expect(row).toMatchObject({
      delivery_line1: '3 Temple Row',
      delivery_line2: 'Flat 2',
      delivery_town_city: 'Birmingham',
      delivery_postcode: 'B2 5HT',
      delivery_country_name: 'United Kingdom',
      contact_number: '0121 496 0999',
      email: 'asha.kaur@example.org',
    });
    const entry = changed.json().audit.at(-1);
    expect(entry.action).toBe('order.delivery-details');
    expect(entry.after.was.deliveryAddress.line1).toBe('12 Market Street');
    expect(entry.after.deliveryAddress.line1).toBe('3 Temple Row');
    expect(changed.json().deliveryAddress).toMatchObject({ line1: '3 Temple Row', postcode: 'B2 5HT' });

    // Checked as checkout checks them: the field at fault is named, and nothing changes.
    const badPostcode = await call('PUT', `/orders/${orderNumber}/delivery-details`, {
      ...newDetails,
      deliveryAddress: { ...newDetails.deliveryAddress, postcode: 'not a postcode' },
    });
    expect(badPostcode.statusCode).toBe(400);
    expect(JSON.stringify(badPostcode.json())).toContain('postcode');
    const badEmail = await call('PUT', `/orders/${orderNumber}/delivery-details`, { ...newDetails, email: 'nobody' });
    expect(badEmail.statusCode).toBe(400);
    expect(JSON.stringify(badEmail.json())).toContain('email');
    expect((await orderRow(t, orderNumber)).delivery_postcode).toBe('B2 5HT');
  });

  it("keeps the customer's e-mail address from a member who may not cancel, refund or see customers", async () => {
    // An outside attack: a packer (dispatch only) pointed an order's e-mail at their own address,
    // had the confirmation sent again, and cancelled the order from its link.
    const { orderNumber } = await paidOrder();
    const owner = await staffMember(t, 'owner');
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/admin/roles',
      headers: { cookie: owner.cookie },
      payload: { name: `Packer ${orderNumber}`, permissions: ['dispatch'] },
    });
    expect(made.statusCode, made.body).toBe(200);
    const packer = backOffice(t, (await staffMember(t, `Packer ${orderNumber}`)).cookie);
    const before = await orderRow(t, orderNumber);
    const stolen = await packer.call('PUT', `/orders/${orderNumber}/delivery-details`, {
      ...newDetails,
      email: 'someone.else@example.net',
    });
    expect(stolen.statusCode).toBe(403);
    expect(stolen.json().error.fields).toEqual([
      {
        field: 'email',
        message: "Only a member who may see customers, refund or cancel may change the customer's e-mail address.",
      },
    ]);
    expect((await orderRow(t, orderNumber)).email).toBe(before.email);
    // Where the parcel goes is the packer's to correct, the address kept as it is.
    const moved = await packer.call('PUT', `/orders/${orderNumber}/delivery-details`, {
      ...newDetails,
      email: before.email,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await orderRow(t, orderNumber)).delivery_line1).toBe('3 Temple Row');
  });

  it('changes where the rest of a partly sent order goes, and the rest goes there', async () => {
    const p = await fx.product(2500, 10);
    const { orderNumber } = await paidByCard(t, p.stockId, 2);
    const [line] = (await office().order(orderNumber)).lines;
    const part = await call('POST', `/orders/${orderNumber}/dispatch`, {
      lines: [{ orderLineId: line!.id, quantity: 1 }],
      untracked: { service: 'Royal Mail 1st Class' },
    });
    expect(part.json()).toMatchObject({ fulfilment: 'partially_dispatched' });
    expect((await office().order(orderNumber)).actions).toContain('change-delivery-details');
    const changed = await call('PUT', `/orders/${orderNumber}/delivery-details`, newDetails);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().deliveryAddress).toMatchObject({ line1: '3 Temple Row', postcode: 'B2 5HT' });

    // Once the rest has gone, nothing more can change.
    await call('POST', `/orders/${orderNumber}/dispatch`, { untracked: { service: 'Royal Mail 1st Class' } });
    expect((await office().order(orderNumber)).actions).not.toContain('change-delivery-details');
    const refused = await call('PUT', `/orders/${orderNumber}/delivery-details`, newDetails);
    expect(refused.statusCode).toBe(409);
  });

  it('refuses new delivery details once the order has been dispatched', async () => {
    const { orderNumber } = await paidOrder();
    expect(
      (
        await call('POST', `/orders/${orderNumber}/dispatch`, {
          carrier: 'Royal Mail',
          trackingNumber: 'AB123456789GB',
        })
      ).statusCode,
    ).toBe(200);
    expect((await office().order(orderNumber)).actions).not.toContain('change-delivery-details');
    const refused = await call('PUT', `/orders/${orderNumber}/delivery-details`, newDetails);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(
      'This order has been dispatched: its delivery details can no longer be changed.',
    );
    expect((await orderRow(t, orderNumber)).delivery_line1).toBe('12 Market Street');
  });

  it('sends the confirmation again, with the invoice’s link, to the order’s address as it is now', async () => {
    const { orderNumber } = await paidOrder();
    await call('PUT', `/orders/${orderNumber}/delivery-details`, newDetails);
    const resent = await call('POST', `/orders/${orderNumber}/resend-confirmation`);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json().timeline.at(-1).text).toMatch(/^Confirmation sent again to asha\.kaur@example\.org by /);
    const confirmations = (await deliveredMail(t)).filter(
      (mail) => mail.subject === `Your order ${orderNumber} is confirmed`,
    );
    expect(confirmations.map((mail) => mail.to)).toEqual([expect.stringContaining('@'), 'asha.kaur@example.org']);
    expect(decodeQuotedPrintable(confirmations[1]!.raw)).toMatch(
      new RegExp(`Your VAT invoice: \\S+/api/documents/invoice/${orderNumber}/`),
    );
  });

  it('has no confirmation to send for an order not paid', async () => {
    const p = await fx.product(1500, 5);
    const unpaid = await placeOrder(t, p.stockId, 1);
    expect((await office().order(unpaid.orderNumber)).actions).not.toContain('resend-confirmation');
    const refused = await call('POST', `/orders/${unpaid.orderNumber}/resend-confirmation`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('Only a paid order has a confirmation to send.');
  });

  it('tells the shop of its new paid orders, several in one e-mail, each once', async () => {
    // A subject with a pound sign comes as an encoded word (RFC 2047, Q encoding).
    const subjectOf = (mail: { subject: string }) =>
      mail.subject.replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_, text: string) =>
        Buffer.from(
          text
            .replaceAll('_', ' ')
            .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
      );
    const shopMail = async () =>
      (await deliveredMail(t))
        .filter((mail) => mail.to === t.config.ordersEmail)
        .map((mail) => ({ ...mail, subject: subjectOf(mail) }))
        .filter((mail) => /new order/i.test(mail.subject));
    // Whatever earlier tests paid is told first.
    await mailShopNewOrders(t.db.kysely, {
      to: t.config.ordersEmail,
      publicUrl: t.config.publicUrl,
      now: () => new Date(),
    });
    const before = (await shopMail()).length;
    const paid = [await paidOrder(), await paidOrder(), await paidOrder()];
    const unpaid = await placeOrder(t, (await fx.product(1000, 5)).stockId, 1);

    // Two instances' timers at the same moment: each order is told once, in one message. (On
    // SQLite, one connection: two in this one process would wait for each other's write lock.)
    const other = testDialect === 'postgres' ? t.database.connect() : t.db;
    try {
      const told = await Promise.all([
        mailShopNewOrders(t.db.kysely, {
          to: t.config.ordersEmail,
          publicUrl: t.config.publicUrl,
          now: () => new Date(),
        }),
        mailShopNewOrders(other.kysely, {
          to: t.config.ordersEmail,
          publicUrl: t.config.publicUrl,
          now: () => new Date(),
        }),
      ]);
      expect(told.reduce((sum, n) => sum + n, 0)).toBe(3);
    } finally {
      if (other !== t.db) await other.destroy();
    }
    const messages = (await shopMail()).slice(before);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.subject).toBe('3 new orders (£104.85)');
    const body = decodeQuotedPrintable(messages[0]!.raw);
    for (const order of paid) expect(body).toContain(`${t.config.publicUrl}/admin/orders/${order.orderNumber}`);
    expect(body).not.toContain(`/admin/orders/${unpaid.orderNumber}`);

    // Nothing new: no message. One more paid: a message of its own.
    expect(
      await mailShopNewOrders(t.db.kysely, {
        to: t.config.ordersEmail,
        publicUrl: t.config.publicUrl,
        now: () => new Date(),
      }),
    ).toBe(0);
    const next = await paidOrder();
    expect(
      await mailShopNewOrders(t.db.kysely, {
        to: t.config.ordersEmail,
        publicUrl: t.config.publicUrl,
        now: () => new Date(),
      }),
    ).toBe(1);
    expect((await shopMail()).at(-1)!.subject).toBe(`New order ${next.orderNumber} (£34.95)`);
  });

  it('is for staff only', async () => {
    const { orderNumber } = await paidOrder();
    for (const [method, url] of [
      ['POST', `/orders/${orderNumber}/notes`],
      ['PUT', `/orders/${orderNumber}/delivery-details`],
      ['POST', `/orders/${orderNumber}/resend-confirmation`],
    ] as const)
      expect((await t.app.inject({ method, url: `/api/admin${url}`, payload: {} })).statusCode).toBe(401);
  });
});
