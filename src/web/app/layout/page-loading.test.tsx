// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { shop } from '../../lib/shop.ts';
import { PageLoading } from './layout.tsx';

describe('a page while its code loads', () => {
  afterEach(cleanup);

  it('keeps a title: the server’s is removed at start, and the page’s own comes only once it has loaded', async () => {
    document.title = '';
    for (const element of document.head.querySelectorAll('title')) element.remove();
    render(<PageLoading />);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(document.title).toBe(shop.name);
  });
});
