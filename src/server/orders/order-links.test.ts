import { describe, expect, it } from 'vitest';
import { createOrderLinks, orderOfLinkKey } from './order-links.ts';

const links = createOrderLinks('a-secret-of-the-shop-long-enough-for-tests');
const orders = new Map([[1234, { id: 7, link_version: 2 }]]);
const find = (orderNumber: number) => Promise.resolve(orders.get(orderNumber));

describe('order page links', () => {
  it('open the order they were made for at its current link version', async () => {
    expect(await orderOfLinkKey(links, links.keyOf(1234, 2), find)).toBe(7);
    expect(links.pathOf(1234, 2)).toBe(`/order/${links.keyOf(1234, 2)}`);
  });

  it('are refused when revoked, made for another order, altered or guessed', async () => {
    const key = links.keyOf(1234, 2);
    const refused = [
      links.keyOf(1234, 1),
      createOrderLinks('another-secret-of-another-shop-long-enough').keyOf(1234, 2),
      key.replace(/^1234/, '1235'),
      `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`,
      '1234',
      `1234.${'A'.repeat(43)}`,
      `${key}x`,
      '',
    ];
    for (const guess of refused) expect(await orderOfLinkKey(links, guess, find)).toBeUndefined();
  });
});
