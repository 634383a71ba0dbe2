// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StockDetail } from '../../../contract/catalog.ts';
import type { BasketLine } from '../../../contract/basket.ts';
import { pricedBasket } from '../../../../test/helpers/priced-basket.ts';
import { basketStore, basketSummary, parseSavedBasket, storageKeys } from './basket-store.ts';

const detail = (id: number, price: number): StockDetail => ({
  id,
  productStockId: id,
  productId: 1,
  productSizeName: 'S',
  productTitle: 'Tabla',
  stock: 9,
  price,
  priceReduction: 0,
  priceWithoutDiscount: price,
  urlKey: 'tabla',
  imageUrl: '',
});

/** A line the server priced and took, with 9 in stock. */
const pricedLine = (id: number, qty: number, price: number): BasketLine => ({
  productStockId: id,
  productId: 1,
  requestedQty: qty,
  availableStock: 9,
  hasError: false,
  errorCode: null,
  title: 'Tabla',
  sizeName: 'S',
  urlKey: 'tabla',
  imageUrl: '',
  price,
  priceWithoutDiscount: price,
  priceReduction: 0,
  lineTotal: price * qty,
});

describe('the basket store', () => {
  beforeEach(() => {
    localStorage.clear();
    basketStore.wipe();
  });
  afterEach(() => vi.restoreAllMocks());

  it('replaces the quantity when a line is added again, and saves under the spec key', () => {
    basketStore.add(7, 2, detail(7, 1500));
    basketStore.add(7, 5, detail(7, 1500));
    basketStore.add(8, 1, detail(8, 999));
    const state = basketStore.getSnapshot();
    expect(state.items).toEqual([
      { productStockId: 7, requestedQty: 5 },
      { productStockId: 8, requestedQty: 1 },
    ]);
    expect(basketSummary(state)).toEqual({ count: 6, total: 5 * 1500 + 999 });
    expect(JSON.parse(localStorage.getItem(storageKeys.basket) ?? '')).toEqual({ items: state.items });
  });

  it('drops a removed line and its details, and wipes to empty', () => {
    basketStore.add(7, 2, detail(7, 1500));
    basketStore.add(8, 1, detail(8, 999));
    basketStore.remove(7);
    expect(basketStore.getSnapshot().items).toEqual([{ productStockId: 8, requestedQty: 1 }]);
    expect(basketStore.getSnapshot().details[7]).toBeUndefined();
    basketStore.wipe();
    expect(basketSummary(basketStore.getSnapshot())).toEqual({ count: 0, total: 0 });
  });

  const savedTwoLines = () =>
    localStorage.setItem(
      storageKeys.basket,
      JSON.stringify({
        items: [
          { productStockId: 7, requestedQty: 2 },
          { productStockId: 9, requestedQty: 1 },
        ],
      }),
    );

  it('restores a saved basket at start and verifies it, dropping lines whose product is gone', async () => {
    savedTwoLines();
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async (url) =>
        String(url) === '/api/verify-basket'
          ? new Response(
              JSON.stringify(pricedBasket({ items: [pricedLine(7, 2, 1200)], itemCount: 2, itemsTotal: 2400 })),
            )
          : new Response('{}'),
      );
    basketStore.start();
    expect(basketStore.getSnapshot().items).toHaveLength(2);
    await vi.waitFor(() =>
      expect(basketStore.getSnapshot().items).toEqual([
        { productStockId: 7, requestedQty: 2, availableStock: 9, price: 1200, refused: false },
      ]),
    );
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/verify-basket');
    expect(basketSummary(basketStore.getSnapshot())).toEqual({ count: 2, total: 2400 });
  });

  it('looks the lines up at start when the verification fails', async () => {
    savedTwoLines();
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async (url) =>
        String(url).startsWith('/api/product-stock')
          ? new Response(JSON.stringify([detail(7, 1200)]))
          : new Response('{}', { status: 503 }),
      );
    basketStore.start();
    await vi.waitFor(() => expect(basketStore.getSnapshot().items).toEqual([{ productStockId: 7, requestedQty: 2 }]));
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/product-stock?id=7&id=9');
    expect(basketSummary(basketStore.getSnapshot())).toEqual({ count: 2, total: 2400 });
  });

  it('counts for the header what the cart counts: nothing of a line the server refused (issue 32)', async () => {
    basketStore.add(7, 50, detail(7, 1500));
    basketStore.add(8, 3, detail(8, 500));
    const refused = { ...pricedLine(7, 50, 1500), availableStock: 2, hasError: true, errorCode: 3, lineTotal: 0 };
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      async () =>
        new Response(
          JSON.stringify(pricedBasket({ items: [refused, pricedLine(8, 3, 500)], itemCount: 3, itemsTotal: 1500 })),
        ),
    );
    await basketStore.verify();
    expect(basketSummary(basketStore.getSnapshot())).toEqual({ count: 3, total: 1500 });
    // Another line added: until the server prices the basket again, the refused line still counts for nothing.
    basketStore.add(9, 1, detail(9, 1000));
    expect(basketSummary(basketStore.getSnapshot())).toEqual({ count: 4, total: 2500 });
    // Its quantity changed, it may be taken again: it counts until the server says otherwise.
    basketStore.setQuantities(new Map([[7, 2]]));
    expect(basketSummary(basketStore.getSnapshot())).toEqual({ count: 6, total: 5500 });
  });

  it('keeps the line when the look-up of its details fails', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('offline'));
    basketStore.add(5, 1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(basketStore.getSnapshot().items).toEqual([{ productStockId: 5, requestedQty: 1 }]);
  });

  it.each([
    ['not JSON', '{items: ['],
    ['items not a list', '{"items": 5}'],
    ['a fractional quantity', '{"items": [{"productStockId": 1, "requestedQty": 1.5}]}'],
    ['a negative stock id', '{"items": [{"productStockId": -1, "requestedQty": 1}]}'],
    ['a huge quantity', '{"items": [{"productStockId": 1, "requestedQty": 1e9}]}'],
    ['a string id', '{"items": [{"productStockId": "1", "requestedQty": 1}]}'],
  ])('discards a saved basket with %s', (_, text) => {
    expect(parseSavedBasket(text)).toEqual({ items: [] });
  });

  it('keeps at most 100 lines of a saved basket', () => {
    const items = Array.from({ length: 150 }, (_, i) => ({ productStockId: i + 1, requestedQty: 1 }));
    expect(parseSavedBasket(JSON.stringify({ items })).items).toHaveLength(100);
  });

  it('keeps the shopper details and addresses across a reload, dropping what is not what we wrote', () => {
    const saved = parseSavedBasket(
      JSON.stringify({
        items: [{ productStockId: 3, requestedQty: 2 }],
        guest: { titleId: 1, firstname: 'Asha', email: 42 },
        deliveryAddress: { line1: '1 High St', postcode: 'B70 7NJ', townCity: 'West Bromwich', countryId: 1 },
        billingAddress: 'nonsense',
        deliveryMethodRateId: 3,
        appliedVouchers: [{ code: 'SAVE10' }],
      }),
    );
    expect(saved).toEqual({
      items: [{ productStockId: 3, requestedQty: 2 }],
      guest: { titleId: 1, firstname: 'Asha', lastname: '', email: '', contactNumber: '' },
      deliveryAddress: {
        line1: '1 High St',
        line2: '',
        line3: '',
        postcode: 'B70 7NJ',
        townCity: 'West Bromwich',
        countryId: 1,
        countryName: '',
      },
      deliveryMethodRateId: 3,
      appliedVouchers: [{ code: 'SAVE10' }],
    });
  });

  it('empties a saved field longer than the form takes, whatever the field', () => {
    const saved = parseSavedBasket(
      JSON.stringify({
        items: [{ productStockId: 3, requestedQty: 2 }],
        guest: { titleId: 1, firstname: 'A'.repeat(51), lastname: 'B'.repeat(50), contactNumber: '0'.repeat(31) },
        deliveryAddress: { line1: 'x'.repeat(101), postcode: 'B70 7NJ0000', townCity: 'T'.repeat(60), countryId: 1 },
        appliedVouchers: [{ code: 'V'.repeat(41) }],
      }),
    );
    expect(saved.guest).toMatchObject({ firstname: '', lastname: 'B'.repeat(50), contactNumber: '' });
    expect(saved.deliveryAddress).toMatchObject({ line1: '', postcode: '', townCity: 'T'.repeat(60) });
    expect(saved.appliedVouchers).toBeUndefined();
  });

  it('adopts the priced basket a verification answers, and saves it', async () => {
    basketStore.add(7, 3, detail(7, 1500));
    basketStore.add(8, 1, detail(8, 999));
    const priced = {
      items: [
        {
          productStockId: 7,
          productId: 1,
          requestedQty: 3,
          availableStock: 2,
          hasError: true,
          errorCode: 3,
          title: 'Tabla',
          sizeName: 'S',
          urlKey: 'tabla',
          imageUrl: '',
          price: 1600,
          priceWithoutDiscount: 1600,
          priceReduction: 0,
          lineTotal: 0,
        },
      ],
      appliedVouchers: [],
      deliveryMethodRateId: null,
    };
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(priced)));
    await basketStore.verify();
    const sent = JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body));
    expect(sent.items).toEqual([
      { productStockId: 7, requestedQty: 3, availableStock: null, price: null },
      { productStockId: 8, requestedQty: 1, availableStock: null, price: null },
    ]);
    const state = basketStore.getSnapshot();
    expect(state.items).toEqual([
      { productStockId: 7, requestedQty: 3, availableStock: 2, price: 1600, refused: true },
    ]);
    expect(state.details[7]?.price).toBe(1600);
    expect(JSON.parse(localStorage.getItem(storageKeys.basket) ?? '').items).toEqual([
      { productStockId: 7, requestedQty: 3 },
    ]);
  });

  it('forgets the order it came back from when that order has been held as long as it may', async () => {
    const orderCode = 'AbCdEfGhIjKlMnOpQrStUv';
    vi.spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        new Response(
          JSON.stringify({
            items: [{ productStockId: 7, requestedQty: 1 }],
            guest: null,
            billingAddress: null,
            deliveryAddress: null,
            deliveryMethodRateId: null,
            appliedVouchers: [],
          }),
        ),
      )
      .mockRejectedValueOnce(new TypeError('offline'))
      .mockResolvedValueOnce(
        new Response(JSON.stringify({ error: { code: 'ORDER_HELD_TOO_LONG', message: 'x' } }), { status: 409 }),
      );
    expect(await basketStore.restoreFromOrder(orderCode)).toBe(true);
    expect(basketStore.getSnapshot().orderCode).toBe(orderCode);
    await expect(basketStore.commit()).rejects.toMatchObject({ status: 409, code: 'ORDER_HELD_TOO_LONG' });
    expect(basketStore.getSnapshot().orderCode).toBeUndefined();
    expect(basketStore.getSnapshot().items).toEqual([{ productStockId: 7, requestedQty: 1 }]);
  });

  /** The `storage` event another tab's save fires in this one. */
  function savedInAnotherTab(basket: object) {
    const newValue = JSON.stringify(basket);
    localStorage.setItem(storageKeys.basket, newValue);
    window.dispatchEvent(new StorageEvent('storage', { key: storageKeys.basket, newValue }));
  }

  it('follows a basket changed in another tab: says what changed and has it priced again (issue 32)', async () => {
    basketStore.start();
    basketStore.add(7, 2, detail(7, 1500));
    basketStore.add(8, 1, detail(8, 999));
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      async () =>
        new Response(
          JSON.stringify(
            pricedBasket({ items: [pricedLine(7, 1, 1500), pricedLine(9, 4, 200)], itemCount: 5, itemsTotal: 2300 }),
          ),
        ),
    );
    savedInAnotherTab({
      items: [
        { productStockId: 7, requestedQty: 1 },
        { productStockId: 9, requestedQty: 4 },
      ],
    });
    expect(basketStore.getSnapshot().notice).toEqual({
      kind: 'changedElsewhere',
      changes: [
        { productStockId: 7, before: 2, after: 1 },
        { productStockId: 8, before: 1, after: 0 },
        { productStockId: 9, before: 0, after: 4 },
      ],
    });
    // Priced again, so the pages show the new totals and their buttons (the review's SECURE CHECKOUT).
    await vi.waitFor(() => expect(basketStore.getSnapshot().priced?.itemCount).toBe(5));
    expect(basketStore.getSnapshot().notice?.kind).toBe('changedElsewhere');
    // A second change counts from what this page showed first; the shopper's own change ends the notice.
    savedInAnotherTab({ items: [{ productStockId: 7, requestedQty: 2 }] });
    expect(basketStore.getSnapshot().notice).toEqual({
      kind: 'changedElsewhere',
      changes: [{ productStockId: 8, before: 1, after: 0 }],
    });
    basketStore.add(7, 3, detail(7, 1500));
    expect(basketStore.getSnapshot().notice).toBeUndefined();
  });

  it('takes no notice of another tab saving the basket this page has already', async () => {
    basketStore.start();
    basketStore.add(7, 2, detail(7, 1500));
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(
        async () => new Response(JSON.stringify(pricedBasket({ items: [pricedLine(7, 2, 1500)], itemCount: 2 }))),
      );
    await basketStore.verify();
    const calls = fetchMock.mock.calls.length;
    // The other tab verified the same basket and saved it again: this page keeps its priced basket.
    savedInAnotherTab(JSON.parse(localStorage.getItem(storageKeys.basket) ?? '{}'));
    expect(basketStore.getSnapshot().priced?.itemCount).toBe(2);
    expect(basketStore.getSnapshot().notice).toBeUndefined();
    expect(fetchMock.mock.calls.length).toBe(calls);
  });

  it('keeps Your Details as they are typed, and another tab follows them without a notice or a check', async () => {
    basketStore.start();
    basketStore.add(7, 2, detail(7, 1500));
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(
        async () => new Response(JSON.stringify(pricedBasket({ items: [pricedLine(7, 2, 1500)], itemCount: 2 }))),
      );
    await basketStore.verify();
    const calls = fetchMock.mock.calls.length;
    basketStore.keepDetails({
      guest: { titleId: Number.NaN, firstname: 'Asha', lastname: 'K'.repeat(51), contactNumber: '(0121) 496 0000' },
      billingAddress: { line1: '12 Market Street', countryId: undefined },
    });
    const kept = JSON.parse(localStorage.getItem(storageKeys.basket) ?? '{}');
    // A title not chosen and a name over its length are kept empty: the server still prices the basket.
    expect(kept.guest).toEqual({
      titleId: null,
      firstname: 'Asha',
      lastname: '',
      email: '',
      contactNumber: '(0121) 496 0000',
    });
    expect(kept.billingAddress).toMatchObject({ line1: '12 Market Street', countryId: null });
    savedInAnotherTab({ ...kept, guest: { ...kept.guest, email: 'asha@example.com' } });
    expect(basketStore.getSnapshot().guest?.email).toBe('asha@example.com');
    expect(basketStore.getSnapshot().notice).toBeUndefined();
    expect(basketStore.getSnapshot().priced?.itemCount).toBe(2);
    expect(fetchMock.mock.calls.length).toBe(calls);
  });

  it('empties a basket whose order has been paid elsewhere, and says so in every tab (issue 32)', async () => {
    basketStore.add(7, 2, detail(7, 1500));
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      async () =>
        new Response(JSON.stringify(pricedBasket({ items: [pricedLine(7, 2, 1500)], paidOrderNumber: 100042 }))),
    );
    await basketStore.verify();
    expect(basketStore.getSnapshot().items).toEqual([]);
    expect(basketStore.getSnapshot().notice).toEqual({ kind: 'orderPaid', orderNumber: 100042 });
    expect(parseSavedBasket(localStorage.getItem(storageKeys.basket))).toEqual({
      items: [],
      notice: { kind: 'orderPaid', orderNumber: 100042 },
    });
  });

  it('empties the basket when the commit is refused because its order has been paid', async () => {
    basketStore.add(7, 2, detail(7, 1500));
    vi.spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        new Response(JSON.stringify({ error: { code: 'ORDER_ALREADY_PAID', message: 'x' } }), { status: 409 }),
      )
      .mockRejectedValueOnce(new TypeError('offline'));
    await expect(basketStore.commit()).rejects.toMatchObject({ status: 409, code: 'ORDER_ALREADY_PAID' });
    expect(basketStore.getSnapshot().items).toEqual([]);
    expect(basketStore.getSnapshot().notice).toEqual({ kind: 'orderPaid', orderNumber: null });
  });

  it('keeps the newest choice when an older verification answers last', async () => {
    basketStore.add(7, 1, detail(7, 1500));
    const answer = (deliveryMethodRateId: number | null) =>
      new Response(
        JSON.stringify({
          items: [
            {
              productStockId: 7,
              productId: 1,
              requestedQty: 1,
              availableStock: 9,
              hasError: false,
              errorCode: null,
              title: 'Tabla',
              sizeName: 'S',
              urlKey: 'tabla',
              imageUrl: '',
              price: 1500,
              priceWithoutDiscount: 1500,
              priceReduction: 0,
              lineTotal: 1500,
            },
          ],
          appliedVouchers: [],
          deliveryMethodRateId,
        }),
      );
    let answerFirst: (response: Response) => void = () => undefined;
    vi.spyOn(globalThis, 'fetch')
      .mockImplementationOnce(() => new Promise((resolve) => (answerFirst = resolve)))
      .mockResolvedValueOnce(answer(3));
    const older = basketStore.verify();
    basketStore.update({ deliveryMethodRateId: 3 });
    await basketStore.verify();
    expect(basketStore.getSnapshot().deliveryMethodRateId).toBe(3);
    // The first question, asked before the shopper chose, is answered last: it must not undo the choice.
    answerFirst(answer(null));
    await older;
    expect(basketStore.getSnapshot().deliveryMethodRateId).toBe(3);
  });
});
