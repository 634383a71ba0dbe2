import { benchBackOfficeList } from './admin-lists.ts';

/**
 * The back office's order list at scale (npm run bench:admin-orders): each kind of list answer
 * (filters, searches, sorting, a deep page) over --orders orders, p50 and p99 printed.
 * The target is p99 <= 50 ms for every row.
 *
 *   npm run bench:admin-orders -- --orders 100000 [--postgres postgres://postgres@127.0.0.1:5432/test]
 */
const today = new Date().toISOString().slice(0, 10);
const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
const orders = (query: string) => `orders?${query}`;

await benchBackOfficeList({
  defaultPort: 3778,
  matchesHeader: 'matches',
  queries: (sample) => [
    ['newest, page 1', orders('')],
    ['page 400', orders('page=400')],
    ['paid, to dispatch', orders('status=paid&fulfilment=unfulfilled')],
    ['unpaid', orders('paid=unpaid')],
    ['last 30 days, PayPal', orders(`from=${monthAgo}&to=${today}&provider=paypal`)],
    ['largest totals first', orders('sort=total-high')],
    ['order number', orders(`q=${sample.order_number}`)],
    ['postcode', orders(`q=${encodeURIComponent(sample.delivery_postcode.toLowerCase().replace(' ', ''))}`)],
    ['postcode district', orders(`q=${encodeURIComponent(sample.delivery_postcode.split(' ')[0]!)}`)],
    ['e-mail start', orders(`q=${encodeURIComponent(sample.email.slice(0, 10))}`)],
    ['surname', orders(`q=${encodeURIComponent(sample.lastname)}`)],
    ['surname, paid, page 3', orders(`q=${encodeURIComponent(sample.lastname)}&paid=paid&page=3`)],
  ],
  matchesOf: (answer) => (answer as { total: number }).total,
});
