import { describe, expect, it } from 'vitest';
import { isAdminPageRequest } from './vite-admin-pages.ts';

describe('the dev server’s back-office deep links', () => {
  it('answers the back office’s pages with its own index.html', () => {
    for (const url of ['/admin', '/admin/', '/admin/orders/100123', '/admin/orders?status=paid&page=2']) {
      expect(isAdminPageRequest(url, 'text/html,application/xhtml+xml'), url).toBe(true);
    }
  });

  it('leaves its modules, the shop’s pages and the API alone', () => {
    expect(isAdminPageRequest('/admin/main.tsx', 'text/html')).toBe(false);
    expect(isAdminPageRequest('/admin/index.html', 'text/html')).toBe(false);
    expect(isAdminPageRequest('/administrator', 'text/html')).toBe(false);
    expect(isAdminPageRequest('/home', 'text/html')).toBe(false);
    expect(isAdminPageRequest('/api/admin/me', 'application/json')).toBe(false);
    expect(isAdminPageRequest('/admin/orders', '*/*')).toBe(false);
  });
});
