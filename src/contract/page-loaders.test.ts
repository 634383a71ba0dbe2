import { describe, expect, it } from 'vitest';
import { pageDataLoaderOf, pageLoaders, loadLayoutData } from './page-loaders.ts';
import { pageRouteAt, pageRoutes } from './routes.ts';

describe('page loaders', () => {
  it('gives every public page in the route table a loader, and no page of a shopper one', () => {
    for (const route of pageRoutes) {
      const loader = (pageLoaders as Record<string, unknown>)[route.page];
      if (route.access === 'public') expect(loader, route.path).toBeTypeOf('function');
      else expect(loader, route.path).toBeUndefined();
    }
    // And none for a page that is not in the table.
    const publicPages = new Set<string>(pageRoutes.filter((r) => r.access === 'public').map((r) => r.page));
    expect(Object.keys(pageLoaders).filter((page) => !publicPages.has(page))).toEqual([]);
  });

  it("writes the layout's data alone into a shopper's page and into no page", () => {
    expect(pageDataLoaderOf('checkoutReview')).toBe(loadLayoutData);
    expect(pageDataLoaderOf('account')).toBe(loadLayoutData);
    expect(pageDataLoaderOf(undefined)).toBe(loadLayoutData);
    expect(pageDataLoaderOf('product')).toBe(pageLoaders.product);
  });
});

describe('pageRouteAt', () => {
  it('finds the route a path is as written, with its parameters as the path writes them', () => {
    expect(pageRouteAt('/products/details/Copper%20Tabla')).toEqual({
      route: { path: '/products/details/:key', page: 'product', access: 'public' },
      params: { key: 'Copper%20Tabla' },
    });
    expect(pageRouteAt('/product/7')?.params).toEqual({ key: '7' });
    expect(pageRouteAt('/')?.route.page).toBe('home');
    expect(pageRouteAt('/search')?.params).toEqual({});
  });

  it('finds no route for a path in another case, with a trailing slash, or no page at all', () => {
    for (const path of ['/Search', '/products/', '/products/a/b', '/search/', '/page-not-found']) {
      expect(pageRouteAt(path), path).toBeUndefined();
    }
  });
});
