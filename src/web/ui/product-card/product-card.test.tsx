// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Product } from '../../../contract/catalog.ts';
import { cardPriceOf } from '../../../contract/catalog-rules.ts';
import { basketStore } from '../../lib/basket/basket-store.ts';
import { ProductGrid } from '../product-grid/product-grid.tsx';
import { ProductCard } from './product-card.tsx';

function product(
  stocks: Array<{ id: number; name: string; stock: number; price: number; reduction?: number }>,
): Product {
  const sizes = stocks.map((s) => ({
    id: s.id,
    productStockId: s.id,
    productId: 1,
    productSizeName: s.name,
    productTitle: 'Bolt-Tuned Dhol',
    stock: s.stock,
    price: s.price,
    priceReduction: s.reduction ?? 0,
    priceWithoutDiscount: s.reduction ? Math.round((s.price * 100) / (100 - s.reduction)) : s.price,
  }));
  return {
    id: 1,
    title: 'Bolt-Tuned Dhol',
    urlKey: 'bolt-tuned-dhol',
    brandId: 1,
    brandName: 'Taalwala',
    productTypeId: 2010,
    productTypeName: 'Dhols',
    description: '',
    defaultImageUrl: '/images/products/dhol-1.svg',
    images: [],
    seoTitle: '',
    seoKeywords: '',
    seoDescription: '',
    stocks: sizes,
    // As the server chooses it (catalog.service.ts).
    cardPrice: cardPriceOf(sizes),
  };
}

function renderCard(p: Product) {
  return render(
    <MemoryRouter>
      <ProductCard product={p} />
    </MemoryRouter>,
  );
}

describe('the product card', () => {
  beforeEach(() => {
    localStorage.clear();
    basketStore.wipe();
  });
  afterEach(cleanup);

  it('shows the highest reduction as its badge and the struck-through price', () => {
    renderCard(
      product([
        { id: 1, name: 'Junior', stock: 3, price: 9000, reduction: 10 },
        { id: 2, name: 'Standard', stock: 3, price: 8000, reduction: 20 },
      ]),
    );
    expect(screen.getByText('20% off')).toBeTruthy();
    expect(screen.getByText('£80.00')).toBeTruthy();
    expect(screen.getByText('£100.00')).toBeTruthy();
  });

  it('shows the price the server chose for it: the cheapest size in stock, "from" when sizes differ', () => {
    renderCard(
      product([
        { id: 41, name: 'Junior 18 inch', stock: 0, price: 48999 },
        { id: 42, name: 'Standard 24 inch', stock: 3, price: 59299 },
        { id: 43, name: 'Professional 26 inch', stock: 2, price: 69999 },
      ]),
    );
    expect(screen.getByRole('article').textContent).toContain('from £592.99');
    expect(screen.queryByText('£489.99')).toBeNull();
  });

  it("shows the server's choice of price and badge, not one of its own", () => {
    const p = product([
      { id: 51, name: 'Small', stock: 2, price: 8000, reduction: 20 },
      { id: 52, name: 'Large', stock: 2, price: 9000 },
    ]);
    renderCard({
      ...p,
      cardPrice: { productStockId: 52, price: 9000, priceWithoutDiscount: 9000, from: false, highestReduction: 0 },
    });
    expect(screen.getByText('£90.00')).toBeTruthy();
    expect(screen.queryByText('£80.00')).toBeNull();
    expect(screen.queryByText('20% off')).toBeNull();
  });

  it("after a dearer size is added, shows that size's price, not the price it starts from", async () => {
    const user = userEvent.setup();
    renderCard(
      product([
        { id: 61, name: 'Junior 18 inch', stock: 0, price: 48999 },
        { id: 62, name: 'Standard 24 inch', stock: 3, price: 59299 },
        { id: 63, name: 'Professional 26 inch', stock: 2, price: 69999 },
      ]),
    );
    await user.click(screen.getByRole('button', { name: 'Add to cart' }));
    await user.selectOptions(screen.getByLabelText('Size / Style'), '63');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByRole('status').textContent).toContain('Added to Basket');
    const card = screen.getByRole('article').textContent;
    expect(card).toContain('£699.99');
    expect(card).not.toContain('£592.99');
    expect(card).toContain('Professional 26 inch');
  });

  it('goes from Add to cart to the choice panel and back on Cancel', async () => {
    const user = userEvent.setup();
    renderCard(product([{ id: 1, name: 'Standard', stock: 3, price: 9000 }]));
    await user.click(screen.getByRole('button', { name: 'Add to cart' }));
    expect(screen.getByLabelText('Quantity')).toBeTruthy();
    // One stock entry: no size dropdown.
    expect(screen.queryByLabelText('Size / Style')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Add to cart' })).toBeTruthy();
  });

  it('validates the quantity on each key-up with the spec wording, and adds only when valid', async () => {
    const user = userEvent.setup();
    renderCard(
      product([
        { id: 11, name: 'Junior', stock: 2, price: 9000 },
        { id: 12, name: 'Standard', stock: 5, price: 12000 },
      ]),
    );
    await user.click(screen.getByRole('button', { name: 'Add to cart' }));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['Junior - £90.00', 'Standard - £120.00']);
    const quantity = screen.getByLabelText('Quantity');
    await user.clear(quantity);
    expect(screen.getByRole('alert').textContent).toBe('Quantity Required');
    await user.type(quantity, '3');
    expect(screen.getByRole('alert').textContent).toBe('Only 2 items in stock');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(basketStore.getSnapshot().items).toEqual([]);

    await user.selectOptions(screen.getByLabelText('Size / Style'), '12');
    expect(screen.getByRole('alert').textContent).toBe('');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText('Added to Basket')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'VIEW CART' }).getAttribute('href')).toBe('/shoppingcart');
    expect(basketStore.getSnapshot().items).toEqual([{ productStockId: 12, requestedQty: 3 }]);
    expect(basketStore.getSnapshot().details[12]).toMatchObject({
      price: 12000,
      productSizeName: 'Standard',
      urlKey: 'bolt-tuned-dhol',
    });
  });

  it('opens on the first size in stock and marks sold-out sizes', async () => {
    const user = userEvent.setup();
    renderCard(
      product([
        { id: 21, name: 'Junior', stock: 0, price: 9000 },
        { id: 22, name: 'Standard', stock: 4, price: 12000 },
      ]),
    );
    await user.click(screen.getByRole('button', { name: 'Add to cart' }));
    const size = screen.getByLabelText<HTMLSelectElement>('Size / Style');
    expect(size.value).toBe('22');
    const options = screen.getAllByRole<HTMLOptionElement>('option');
    expect(options.map((o) => o.textContent)).toEqual(['Junior - £90.00 - Sold out', 'Standard - £120.00']);
    expect(options[0]!.disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(basketStore.getSnapshot().items).toEqual([{ productStockId: 22, requestedQty: 1 }]);
  });

  it('shows a product with nothing in stock as sold out, with nothing to add', () => {
    renderCard(
      product([
        { id: 31, name: 'Junior', stock: 0, price: 9000 },
        { id: 32, name: 'Standard', stock: 0, price: 12000 },
      ]),
    );
    expect(screen.queryByRole('button', { name: 'Add to cart' })).toBeNull();
    expect(screen.getByText('Sold out')).toBeTruthy();
  });
});

describe('a grid of product cards', () => {
  afterEach(cleanup);

  it('loads the pictures of its first cards at once (the largest paint is among them) and the rest when scrolled to', () => {
    const products = [1, 2, 3, 4, 5, 6].map((id) => ({ ...product([{ id, name: 'One', stock: 1, price: 100 }]), id }));
    const { container } = render(
      <MemoryRouter>
        <ProductGrid products={products} eagerCount={4} />
      </MemoryRouter>,
    );
    const loading = [...container.querySelectorAll('img')].map((img) => img.getAttribute('loading'));
    expect(loading).toEqual(['eager', 'eager', 'eager', 'eager', 'lazy', 'lazy']);
  });
});
