import { benchBackOfficeList } from './admin-lists.ts';

/**
 * The back office's customer list at scale (npm run bench:admin-customers): over --orders guest
 * orders (100,000 by default, about 90,000 addresses), each kind of list answer (the whole list
 * sorted three ways, a deep page, searches, one customer's page), p50 and p99 printed
 * (docs/back-office.md#customers).
 *
 *   npm run bench:admin-customers -- --orders 100000 [--postgres postgres://postgres@127.0.0.1:5432/test]
 */
const customers = (query: string) => `customers?${query}`;

await benchBackOfficeList({
  defaultPort: 3779,
  matchesHeader: 'customers (or orders)',
  queries: (sample) => [
    ['everyone, last order first', customers('')],
    ['everyone, most spent first', customers('sort=spent')],
    ['everyone, by e-mail, page 400', customers('sort=email&page=400')],
    ['postcode', customers(`q=${encodeURIComponent(sample.delivery_postcode.toLowerCase().replace(' ', ''))}`)],
    ['postcode district', customers(`q=${encodeURIComponent(sample.delivery_postcode.split(' ')[0]!)}`)],
    ['address line', customers(`q=${encodeURIComponent(sample.delivery_line1.toLowerCase())}`)],
    ['e-mail start', customers(`q=${encodeURIComponent(sample.email.slice(0, 10))}`)],
    ['surname', customers(`q=${encodeURIComponent(sample.lastname)}`)],
    ["a guest's page", `customers/ref/o${sample.order_number}`],
  ],
  matchesOf: (answer) => {
    const { total, orderCount } = answer as { total?: number; orderCount?: number };
    return total ?? orderCount;
  },
});
