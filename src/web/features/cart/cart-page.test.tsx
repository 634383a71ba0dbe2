// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BasketLine, PricedBasket } from '../../../contract/basket.ts';
import { basketStore } from '../../lib/basket/basket-store.ts';
import { pricedBasket } from '../../../../test/helpers/priced-basket.ts';
import CartPage from './cart-page.tsx';

const detail = {
  id: 7,
  productStockId: 7,
  productId: 1,
  productSizeName: 'Standard',
  productTitle: 'Bolt-Tuned Dhol',
  stock: 5,
  price: 700,
  priceReduction: 0,
  priceWithoutDiscount: 700,
  urlKey: 'bolt-tuned-dhol',
  imageUrl: '/images/products/dhol-1.svg',
};

function priced(line: Partial<BasketLine>): PricedBasket {
  const full: BasketLine = {
    productStockId: 7,
    productId: 1,
    requestedQty: 2,
    availableStock: 5,
    hasError: false,
    errorCode: null,
    title: 'Bolt-Tuned Dhol',
    sizeName: 'Standard',
    urlKey: 'bolt-tuned-dhol',
    imageUrl: '/images/products/dhol-1.svg',
    price: 700,
    priceWithoutDiscount: 700,
    priceReduction: 0,
    lineTotal: 1400,
    ...line,
  };
  const counted = full.hasError ? 0 : full.lineTotal;
  return pricedBasket({
    items: [full],
    itemCount: full.hasError ? 0 : (full.requestedQty ?? 0),
    itemsTotal: counted,
    totalPriceExcludingDelivery: counted,
    totalPriceIncludingDelivery: counted,
  });
}

function serve(answer: PricedBasket) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } })),
  );
}

function renderCart() {
  render(
    <MemoryRouter>
      <CartPage />
    </MemoryRouter>,
  );
}

describe('the cart', () => {
  beforeEach(() => {
    localStorage.clear();
    basketStore.wipe();
    basketStore.add(7, 2, detail);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('hides PROCEED TO CHECKOUT while a typed quantity is wrong', async () => {
    serve(priced({}));
    const user = userEvent.setup();
    renderCart();
    expect(await screen.findByRole('button', { name: 'PROCEED TO CHECKOUT' })).toBeTruthy();
    for (const typed of ['abc', '500']) {
      await user.clear(screen.getByLabelText('Quantity'));
      await user.type(screen.getByLabelText('Quantity'), typed);
      await user.click(screen.getByRole('button', { name: 'UPDATE BASKET' }));
      expect(screen.getByRole('alert')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'PROCEED TO CHECKOUT' })).toBeNull();
    }
  });

  it('does not show a total for a line in error, which the summary does not count', async () => {
    serve(priced({ hasError: true, errorCode: 3, availableStock: 1 }));
    renderCart();
    expect(await screen.findByText('There are only 1 in stock. Please change quantity.')).toBeTruthy();
    const line = within(screen.getByRole('listitem'));
    expect(line.queryByText('£14.00')).toBeNull();
    expect(line.getByText('Not included in the total')).toBeTruthy();
    const summary = within(screen.getByRole('complementary', { name: 'SUMMARY' }));
    expect(summary.getByText(/0 Items/)).toBeTruthy();
    expect(summary.getByText('Please correct the items marked above to check out.')).toBeTruthy();
    expect(summary.queryByRole('button', { name: 'PROCEED TO CHECKOUT' })).toBeNull();
  });
});
