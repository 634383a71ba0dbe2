// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_NEW_STOCK, type ProductDetail } from '../../../../contract/admin/catalogue.ts';
import { ProductForm } from './product-form.tsx';

const types = [{ id: 2010, name: 'Dhols', parentId: -1, sortOrder: 1, products: 3 }];
const brands = [{ id: 1, name: 'Sur Sangam', sortOrder: 1, products: 3 }];

afterEach(cleanup);

/** The form in a data router, as the back office runs it (it asks before unsaved changes are left). */
function inDataRouter(form: ReactElement) {
  render(<RouterProvider router={createMemoryRouter([{ path: '/', element: form }])} />);
}

/** A new product filled in whole, its one size with `price`, `reduction` and `stock` as typed. */
async function fillNewProduct(size: { price: string; reduction: string; stock: string }) {
  const onSave = vi.fn(async (): Promise<ProductDetail> => new Promise(() => {}));
  inDataRouter(<ProductForm product={undefined} types={types} brands={brands} onSave={onSave} />);
  await userEvent.type(screen.getByLabelText('Title'), 'Wedding Dhol');
  await userEvent.selectOptions(screen.getByLabelText('Type'), 'Dhols');
  await userEvent.selectOptions(screen.getByLabelText('Brand'), 'Sur Sangam');
  await userEvent.type(screen.getByLabelText('Description'), 'A dhol for the baraat.');
  await userEvent.type(screen.getByLabelText('Size 1: name'), 'Large');
  await userEvent.type(screen.getByLabelText('Size 1: price (£)'), size.price);
  await userEvent.clear(screen.getByLabelText('Size 1: reduction (%)'));
  await userEvent.type(screen.getByLabelText('Size 1: reduction (%)'), size.reduction);
  await userEvent.clear(screen.getByLabelText('Size 1: stock'));
  await userEvent.type(screen.getByLabelText('Size 1: stock'), size.stock);
  await userEvent.click(screen.getByRole('button', { name: 'Add the product' }));
  return onSave;
}

describe('the product form', () => {
  it('sends the price as pence, from pounds as typed', async () => {
    const onSave = await fillNewProduct({ price: '£1,299.29', reduction: '10', stock: '12' });
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({
        title: 'Wedding Dhol',
        productTypeId: 2010,
        brandId: 1,
        sizes: [
          {
            sizeName: 'Large',
            priceWithoutDiscount: 129929,
            priceReduction: 10,
            stock: 12,
            parcel: { weightGrams: null, packagingId: null, lengthMm: null, widthMm: null, heightMm: null },
          },
        ],
      }),
    );
  });

  it("sends a size's weight and its box: a preset's id, or its own three sides, never both", async () => {
    const packagings = [
      { id: 7, name: 'Tabla box', lengthMm: 450, widthMm: 450, heightMm: 350, weightGrams: 900, sizes: 0 },
    ];
    const onSave = vi.fn(async (): Promise<ProductDetail> => new Promise(() => {}));
    inDataRouter(
      <ProductForm product={undefined} types={types} brands={brands} packagings={packagings} onSave={onSave} />,
    );
    await userEvent.type(screen.getByLabelText('Title'), 'Tabla pair');
    await userEvent.selectOptions(screen.getByLabelText('Type'), 'Dhols');
    await userEvent.selectOptions(screen.getByLabelText('Brand'), 'Sur Sangam');
    await userEvent.type(screen.getByLabelText('Description'), 'A pair.');
    await userEvent.type(screen.getByLabelText('Size 1: name'), 'Pair');
    await userEvent.type(screen.getByLabelText('Size 1: price (£)'), '300');
    await userEvent.type(screen.getByLabelText('Size 1: weight (g)'), '6500');
    await userEvent.type(screen.getByLabelText('Size 1: length (mm)'), '400');
    await userEvent.type(screen.getByLabelText('Size 1: width (mm)'), 'wide');
    await userEvent.click(screen.getByRole('button', { name: 'Add the product' }));
    expect(await screen.findByText('Please enter the width in whole millimetres')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();

    // Sent in the preset, the sides typed before are not sent (and not asked for).
    await userEvent.selectOptions(screen.getByLabelText('Size 1: sent in'), '7');
    expect(screen.queryByLabelText('Size 1: width (mm)')).toBeNull();
    await userEvent.type(screen.getByLabelText('Size 1: weight (g)'), '.5');
    await userEvent.click(screen.getByRole('button', { name: 'Add the product' }));
    expect(await screen.findByText('Please enter the weight in whole grams')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Size 1: weight (g)'));
    await userEvent.type(screen.getByLabelText('Size 1: weight (g)'), '6500');
    await userEvent.click(screen.getByRole('button', { name: 'Add the product' }));
    await vi.waitFor(() => expect(onSave).toHaveBeenCalled());
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({
        sizes: [
          expect.objectContaining({
            parcel: { weightGrams: 6500, packagingId: 7, lengthMm: null, widthMm: null, heightMm: null },
          }),
        ],
      }),
    );
  });

  it("names each packaging preset with its size, and says the chosen one's size and empty weight beside the field", async () => {
    const packagings = [
      { id: 7, name: 'Tabla box', lengthMm: 450, widthMm: 450, heightMm: 350, weightGrams: 900, sizes: 0 },
      { id: 8, name: 'Harmonium crate', lengthMm: 600, widthMm: 350, heightMm: 400, weightGrams: 2500, sizes: 3 },
    ];
    inDataRouter(
      <ProductForm product={undefined} types={types} brands={brands} packagings={packagings} onSave={vi.fn()} />,
    );
    const sentIn = screen.getByLabelText('Size 1: sent in');
    expect(screen.getByRole('option', { name: 'Tabla box, 450 × 450 × 350 mm' })).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Harmonium crate, 600 × 350 × 400 mm' })).toBeTruthy();
    await userEvent.selectOptions(sentIn, '8');
    expect(sentIn.getAttribute('aria-describedby')).toBeTruthy();
    const hint = document.getElementById(sentIn.getAttribute('aria-describedby')!.split(' ')[0]!);
    expect(hint?.textContent).toBe('600 × 350 × 400 mm, 2500 g empty: added to the weight above.');
    await userEvent.selectOptions(sentIn, '');
    expect(screen.queryByText(/g empty/)).toBeNull();
  });

  // The limits are the contract's, the ones the server holds to: the form does not state its own.
  it("holds to the contract's limits, with its messages, before anything is sent", async () => {
    const onSave = await fillNewProduct({ price: '100000.01', reduction: '101', stock: String(MAX_NEW_STOCK + 1) });
    expect(await screen.findByText('The price must be at most £100,000')).toBeTruthy();
    expect(screen.getByText('The reduction must be 0 to 100 percent')).toBeTruthy();
    expect(screen.getByText(`The stock must be at most ${MAX_NEW_STOCK}`)).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('says what is not typed as a number, beside the field', async () => {
    const onSave = await fillNewProduct({ price: '12.345', reduction: 'ten', stock: 'lots' });
    expect(await screen.findByText('Please enter the price in pounds, such as 129.99')).toBeTruthy();
    expect(screen.getByText('Please enter a whole percent, 0 for none')).toBeTruthy();
    expect(screen.getByText('Please enter the stock of a new size')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('says everything missing at once, what cannot be read and what the contract needs', async () => {
    const onSave = vi.fn(async (): Promise<ProductDetail> => new Promise(() => {}));
    inDataRouter(<ProductForm product={undefined} types={types} brands={brands} onSave={onSave} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add the product' }));
    expect(await screen.findByText('Please enter a title')).toBeTruthy();
    expect(screen.getByText('Please choose a type')).toBeTruthy();
    expect(screen.getByText('Please enter the price in pounds, such as 129.99')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
  });
});
