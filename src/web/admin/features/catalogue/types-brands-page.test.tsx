// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BrandView, ProductTypeView } from '../../../../contract/admin/catalogue.ts';
import { brandsQueryOptions, typesQueryOptions } from './api/catalogue.ts';
import TypesBrandsPage from './types-brands-page.tsx';

const drums: ProductTypeView = { id: 1001, name: 'Drums', parentId: -1, sortOrder: 1, products: 0 };
const dhols: ProductTypeView = { id: 2010, name: 'Dhols', parentId: 1001, sortOrder: 1, products: 9 };
const taalwala: BrandView = { id: 5, name: 'Taalwala', sortOrder: 1, products: 4 };
const bansuriGhar: BrandView = { id: 7, name: 'Bansuri Ghar', sortOrder: 2, products: 2 };

/** The page on types and brands as the server listed them; each change is answered with `answer`. */
function renderPage(answer: unknown) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(typesQueryOptions().queryKey, [drums, dhols]);
  client.setQueryData(brandsQueryOptions().queryKey, [taalwala, bansuriGhar]);
  const fetch = vi.fn(async (_path: string, _init?: RequestInit) => Response.json(answer));
  vi.stubGlobal('fetch', fetch);
  render(
    <QueryClientProvider client={client}>
      <TypesBrandsPage />
    </QueryClientProvider>,
  );
  return fetch;
}

const saveButton = (name: string) => screen.getByRole('button', { name: `Save ${name}` }) as HTMLButtonElement;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the types and brands page', () => {
  it('lists each type under its parent and each brand, with the products of each', () => {
    renderPage([]);
    const types = screen.getByRole('table', { name: 'Product types' });
    expect(types.querySelectorAll('tbody tr')).toHaveLength(2);
    expect((screen.getByLabelText('Name of Drums › Dhols') as HTMLInputElement).value).toBe('Dhols');
    expect(screen.getByRole('row', { name: /Drums › Dhols/ }).textContent).toContain('9');
    const brands = screen.getByRole('table', { name: 'Brands' });
    expect(brands.querySelectorAll('tbody tr')).toHaveLength(2);
    expect(screen.getByLabelText('Name of Bansuri Ghar')).toBeTruthy();
    expect(screen.queryByLabelText('Where Taalwala goes')).toBeNull();
  });

  it('saves a type renamed and moved in its row, and no other row', async () => {
    const fetch = renderPage([drums, { ...dhols, name: 'Dhol drums', parentId: -1 }]);
    expect(saveButton('Dhols').disabled).toBe(true);

    await userEvent.clear(screen.getByLabelText('Name of Drums › Dhols'));
    await userEvent.type(screen.getByLabelText('Name of Drums › Dhols'), ' Dhol drums ');
    await userEvent.selectOptions(screen.getByLabelText('Where Dhols goes'), 'At the top');
    expect(saveButton('Dhols').disabled).toBe(false);
    expect(saveButton('Drums').disabled).toBe(true);
    expect(saveButton('Taalwala').disabled).toBe(true);

    await userEvent.click(saveButton('Dhols'));
    expect(fetch).toHaveBeenCalledTimes(1);
    const [path, init] = fetch.mock.calls[0]!;
    expect([path, init?.method, JSON.parse(String(init?.body))]).toEqual([
      '/api/admin/product-types/2010',
      'PUT',
      { name: 'Dhol drums', parentId: -1 },
    ]);
    expect((await screen.findByRole('status')).textContent).toBe('Saved "Dhol drums".');
    // The row now shows the type as saved, with nothing left to save.
    expect((screen.getByLabelText('Name of Dhol drums') as HTMLInputElement).value).toBe('Dhol drums');
    expect(saveButton('Dhol drums').disabled).toBe(true);
  });

  it('saves a brand renamed in its row; a name put back as it was is not saved', async () => {
    const fetch = renderPage([{ ...taalwala, name: 'Taalwala Drums' }, bansuriGhar]);
    const name = screen.getByLabelText('Name of Taalwala');
    await userEvent.type(name, 'x');
    expect(saveButton('Taalwala').disabled).toBe(false);
    await userEvent.type(name, '{Backspace}');
    expect(saveButton('Taalwala').disabled).toBe(true);

    await userEvent.type(name, ' Drums');
    await userEvent.click(saveButton('Taalwala'));
    const [path, init] = fetch.mock.calls[0]!;
    expect([path, init?.method, JSON.parse(String(init?.body))]).toEqual([
      '/api/admin/brands/5',
      'PUT',
      { name: 'Taalwala Drums' },
    ]);
    expect((await screen.findByRole('status')).textContent).toBe('Saved "Taalwala Drums".');
    expect(saveButton('Bansuri Ghar').disabled).toBe(true);
  });
});
