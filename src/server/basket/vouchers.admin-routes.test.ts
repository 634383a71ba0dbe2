import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voucherDetailSchema, voucherListSchema, type VoucherInput } from '../../contract/admin/vouchers.ts';
import { commitResponseSchema, pricedBasketSchema } from '../../contract/basket.ts';
import { voucherOutcomes } from '../../contract/basket-rules.ts';
import { checkoutFixtures, commitBody, guest } from '../../../test/helpers/checkout-fixtures.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * Vouchers in the back office (docs/back-office.md#vouchers): made and edited as the basket reads
 * them, their uses, and edits that must not disturb the uses counted by checkouts.
 */
describe('back office vouchers', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let staff: { cookie: string; email: string };
  let buyers = 0;
  let codes = 0;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
    fx = await checkoutFixtures(t.db);
    staff = await staffMember(t, 'staff');
  });
  afterAll(() => t.close());

  const admin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/admin${url}`,
      headers: { cookie: staff.cookie },
      ...(payload ? { payload } : {}),
    });
  const newCode = () => `Raag${Date.now().toString(36)}${++codes}`;
  const voucher = (input: Partial<VoucherInput> = {}): VoucherInput => ({
    code: newCode(),
    kind: 'percent',
    amount: 10,
    minSpend: 0,
    validFrom: '2020-01-01',
    validTo: '2099-12-31',
    usageLimit: null,
    active: true,
    ...input,
  });
  async function create(input: Partial<VoucherInput> = {}) {
    const answer = await admin('POST', '/vouchers', voucher(input));
    expect(answer.statusCode, answer.body).toBe(201);
    return voucherDetailSchema.parse(answer.json());
  }
  async function checkout(stockId: number, code: string) {
    buyers += 1;
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: stockId, requestedQty: 1 }], {
        guest: { ...guest, email: `voucher.buyer${buyers}.${Date.now()}@example.com` },
        voucherCodeAttempt: code,
      }),
      remoteAddress: `10.15.${buyers % 250}.${(buyers * 3) % 250}`,
    });
    return commitResponseSchema.parse(answer.json());
  }

  it('makes a voucher the basket applies, whatever case the shopper types, and shows its uses', async () => {
    const created = await create({ kind: 'fixed', amount: 500, minSpend: 2000 });
    expect(created.code).toBe(created.code.toUpperCase());
    expect(created).toMatchObject({
      timesUsed: 0,
      useCount: 0,
      uses: [],
      validFrom: '2020-01-01',
      validTo: '2099-12-31',
    });
    const p = await fx.product(2500, 10);

    const priced = await t.app.inject({
      method: 'POST',
      url: '/api/verify-basket',
      payload: {
        items: [{ productStockId: p.stockId, requestedQty: 1 }],
        voucherCodeAttempt: created.code.toLowerCase(),
      },
    });
    expect(pricedBasketSchema.parse(priced.json())).toMatchObject({
      lastVoucherOutcome: voucherOutcomes.applied,
      discountAmount: 500,
    });

    const order = await checkout(p.stockId, created.code.toLowerCase());
    expect(order.ok).toBe(true);
    const detail = voucherDetailSchema.parse((await admin('GET', `/vouchers/${created.id}`)).json());
    expect(detail).toMatchObject({ timesUsed: 1, useCount: 1 });
    expect(detail.uses).toEqual([
      expect.objectContaining({ orderNumber: order.ok ? order.orderNumber : 0, discount: 500 }),
    ]);

    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_type', '=', 'voucher')
      .where('entity_id', '=', String(created.id))
      .execute();
    expect(audit).toEqual([
      expect.objectContaining({ action: 'voucher.create', before: null, staff_email: staff.email }),
    ]);
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ code: created.code, kind: 'fixed', amount: 500 });
  });

  it('keeps codes unique in any case', async () => {
    const first = await create();
    const again = await admin('POST', '/vouchers', voucher({ code: first.code.toLowerCase() }));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(`Another voucher already has the code ${first.code}.`);
    const other = await create();
    const renamed = await admin('PUT', `/vouchers/${other.id}`, voucher({ code: first.code.toLowerCase() }));
    expect(renamed.statusCode).toBe(409);
  });

  it('finds vouchers by part of their code, in any case', async () => {
    const made = await create({ code: `FINDME${Date.now().toString(36)}` });
    const found = voucherListSchema.parse(
      (await admin('GET', `/vouchers?q=${made.code.slice(0, 10).toLowerCase()}`)).json(),
    );
    expect(found.vouchers.map((v) => v.code)).toContain(made.code);
    expect(voucherListSchema.parse((await admin('GET', '/vouchers?q=NO-SUCH-CODE-EVER')).json()).total).toBe(0);
  });

  it('answers bad input with a 400 naming each field', async () => {
    const fieldsOf = async (payload: object) => {
      const answer = await admin('POST', '/vouchers', payload);
      expect(answer.statusCode).toBe(400);
      return [...new Set((answer.json().error.fields as Array<{ field: string }>).map((f) => f.field))].sort();
    };
    expect(await fieldsOf(voucher({ code: 'a b', amount: 0 }))).toEqual(['amount', 'code']);
    expect(await fieldsOf(voucher({ kind: 'percent', amount: 120 }))).toEqual(['amount']);
    expect(await fieldsOf(voucher({ validFrom: '2026-05-02', validTo: '2026-05-01' }))).toEqual(['validTo']);
    expect(await fieldsOf(voucher({ minSpend: -1, usageLimit: 0, validFrom: 'soon' }))).toEqual([
      'minSpend',
      'usageLimit',
      'validFrom',
    ]);
    expect((await admin('PUT', '/vouchers/999999', voucher())).statusCode).toBe(404);
  });

  it('refuses days that do not exist, years out of reach and a last day before a rolled-over first, naming the field', async () => {
    // An outside attack had 2026-02-31 to 2026-13-45 stored as typed and applied at checkout, and
    // 2026-11-40 (read as 10 December) before a last day of 1 December.
    const refusal = async (input: Partial<VoucherInput>, verb: 'POST' | 'PUT' = 'POST', url = '/vouchers') => {
      const answer = await admin(verb, url, voucher(input));
      expect(answer.statusCode, answer.body).toBe(400);
      return (answer.json().error.fields as Array<{ field: string; message: string }>).map(
        (f) => `${f.field}: ${f.message}`,
      );
    };
    const notADay = 'Please enter a real date, such as 2026-03-31';
    const outOfReach = 'Please enter a date from 2000 to 2099';
    expect(await refusal({ validFrom: '2026-02-31', validTo: '2026-13-45' })).toEqual([
      `validFrom: ${notADay}`,
      `validTo: ${notADay}`,
    ]);
    expect(await refusal({ validFrom: '2026-11-40', validTo: '2026-12-01' })).toEqual([`validFrom: ${notADay}`]);
    expect(await refusal({ validFrom: '2027-02-29', validTo: '2027-03-01' })).toEqual([`validFrom: ${notADay}`]);
    expect(await refusal({ validFrom: '0000-01-01', validTo: '9999-12-31' })).toEqual([
      `validFrom: ${outOfReach}`,
      `validTo: ${outOfReach}`,
    ]);
    const made = await create({ validFrom: '2028-02-29', validTo: '2028-03-01' });
    expect(made).toMatchObject({ validFrom: '2028-02-29', validTo: '2028-03-01' });
    expect(await refusal({ validFrom: '2026-04-31', validTo: '2026-05-01' }, 'PUT', `/vouchers/${made.id}`)).toEqual([
      `validFrom: ${notADay}`,
    ]);
    expect(voucherListSchema.parse((await admin('GET', `/vouchers?q=${made.code}`)).json()).vouchers).toEqual([
      expect.objectContaining({ validFrom: '2028-02-29', validTo: '2028-03-01' }),
    ]);
  });

  it('refuses an amount off over £10,000 and a minimum spend over £1,000,000, naming the field', async () => {
    const refused = async (input: Partial<VoucherInput>) => {
      const answer = await admin('POST', '/vouchers', voucher(input));
      expect(answer.statusCode, answer.body).toBe(400);
      return (answer.json().error.fields as Array<{ field: string; message: string }>).map(
        (f) => `${f.field}: ${f.message}`,
      );
    };
    expect(await refused({ kind: 'fixed', amount: 9_007_199_254_740_991, minSpend: 9_007_199_254_740_991 })).toEqual([
      'minSpend: The minimum spend is at most £1,000,000',
      'amount: An amount off is at most £10,000',
    ]);
    expect(await refused({ kind: 'fixed', amount: 1_000_001 })).toEqual(['amount: An amount off is at most £10,000']);
    expect(await refused({ kind: 'percent', amount: 101 })).toEqual(['amount: A percentage is at most 100']);
    expect(await create({ kind: 'fixed', amount: 1_000_000, minSpend: 100_000_000 })).toMatchObject({
      amount: 1_000_000,
      minSpend: 100_000_000,
    });
  });

  it('edits a voucher in use without touching its uses, and audits before and after', async () => {
    const made = await create({ usageLimit: 5 });
    const p = await fx.product(2500, 10);
    expect((await checkout(p.stockId, made.code)).ok).toBe(true);
    expect((await checkout(p.stockId, made.code)).ok).toBe(true);

    const edited = await admin('PUT', `/vouchers/${made.id}`, voucher({ code: made.code, amount: 15, usageLimit: 2 }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect(voucherDetailSchema.parse(edited.json())).toMatchObject({ amount: 15, usageLimit: 2, timesUsed: 2 });

    const refused = await admin('PUT', `/vouchers/${made.id}`, voucher({ code: made.code, usageLimit: 1 }));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(
      'This voucher has been used 2 times, so its usage limit cannot be lower than 2.',
    );
    const renamed = await admin('PUT', `/vouchers/${made.id}`, voucher({ usageLimit: 2 }));
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().error.message).toMatch(/code of a voucher that has been used cannot change/);

    const row = await t.db.kysely
      .selectFrom('vouchers')
      .selectAll()
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ code: made.code, amount: 15, usage_limit: 2, times_used: 2 });
    const update = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'voucher.update')
      .where('entity_id', '=', String(made.id))
      .execute();
    expect(update).toHaveLength(1);
    expect(JSON.parse(update[0]!.before!)).toMatchObject({ amount: 10, usageLimit: 5 });
    expect(JSON.parse(update[0]!.after!)).toMatchObject({ amount: 15, usageLimit: 2 });
  });

  it('keeps times_used right when staff edit a voucher while shoppers check out with it', async () => {
    const made = await create({ usageLimit: 100 });
    const p = await fx.product(2500, 100);
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, () => checkout(p.stockId, made.code)),
      ...Array.from({ length: 6 }, (_, i) =>
        admin('PUT', `/vouchers/${made.id}`, voucher({ code: made.code, amount: 10 + i, usageLimit: 100 })),
      ),
    ]);
    const orders = answers.filter((answer) => 'ok' in answer && answer.ok).length;
    expect(orders).toBe(12);
    const detail = voucherDetailSchema.parse((await admin('GET', `/vouchers/${made.id}`)).json());
    expect(detail.timesUsed).toBe(12);
    expect(detail.useCount).toBe(12);
  });

  it('changes the code of a voucher nobody has used', async () => {
    const made = await create();
    const code = newCode();
    const renamed = await admin('PUT', `/vouchers/${made.id}`, voucher({ code, active: false }));
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(voucherDetailSchema.parse(renamed.json())).toMatchObject({ code: code.toUpperCase(), active: false });
  });
});
