import type { Insertable } from 'kysely';
import type { Db } from '../src/server/db/database.ts';
import type { OrderLineTable, OrderStatus, OrderTable } from '../src/server/db/schema.ts';
import type { Fulfilment } from '../src/contract/order-status.ts';
import { randomFor } from '../src/server/catalog/demo/generate-products.ts';

/**
 * Orders for the back office's benchmark (npm run bench:admin-orders): a year of a busy shop,
 * generated the same way every time (a seeded generator), written in batches. Names, towns and
 * postcodes vary enough that a search finds a handful, as it would in a real shop.
 */
const firstNames = [
  'Asha',
  'Rohan',
  'Priya',
  'Arjun',
  'Meera',
  'Vikram',
  'Anjali',
  'Sanjay',
  'Kiran',
  'Neha',
  'Ravi',
  'Sunita',
  'Amir',
  'Leila',
  'Tom',
  'Emma',
  'Oliver',
  'Sophie',
  'Harpreet',
  'Jaspal',
];
const lastNames = [
  'Kaur',
  'Singh',
  'Patel',
  'Sharma',
  'Gupta',
  'Khan',
  'Begum',
  'Ahmed',
  'Mistry',
  'Desai',
  'Shah',
  'Joshi',
  'Verma',
  'Chopra',
  'Bhatt',
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Evans',
  'Rahman',
  'Hussain',
  'Nair',
  'Menon',
  'Iyer',
  'Reddy',
  'Rao',
  'Malik',
  'Bains',
  'Sandhu',
];
const towns: Array<[string, string]> = [
  ['Leicester', 'LE'],
  ['Birmingham', 'B'],
  ['London', 'E'],
  ['London', 'N'],
  ['Bradford', 'BD'],
  ['Manchester', 'M'],
  ['Coventry', 'CV'],
  ['Wolverhampton', 'WV'],
  ['Slough', 'SL'],
  ['Southall', 'UB'],
  ['Glasgow', 'G'],
  ['Cardiff', 'CF'],
];
const letters = 'ABDEFGHJLNPQRSTUWXYZ';

export async function generateOrders(
  db: Db,
  count: number,
  options: { now?: Date; batch?: number } = {},
): Promise<void> {
  const random = randomFor(2026);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const now = (options.now ?? new Date()).getTime();
  const stocks = await db.kysely
    .selectFrom('product_stocks')
    .innerJoin('products', 'products.id', 'product_stocks.product_id')
    .select([
      'product_stocks.id',
      'product_stocks.product_id',
      'product_stocks.price',
      'product_stocks.size_name',
      'products.title',
    ])
    .limit(2_000)
    .execute();
  if (stocks.length === 0) throw new Error('seed a catalogue first');
  const { max } = await db.kysely
    .selectFrom('orders')
    .select((eb) => eb.fn.max('order_number').as('max'))
    .executeTakeFirstOrThrow();
  let orderNumber = Math.max(Number(max ?? 0), 500_000);
  const batch = options.batch ?? 400;

  for (let done = 0; done < count; done += batch) {
    const orders: Array<Insertable<OrderTable>> = [];
    const linesOf: Array<Array<Omit<Insertable<OrderLineTable>, 'order_id'>>> = [];
    for (let i = 0; i < Math.min(batch, count - done); i++) {
      // Placed in order over the year, as a shop's orders are: later numbers are later orders.
      const placedAt = now - ((count - (done + i)) / count) * 365 * 24 * 3_600_000 - random() * 60_000;
      const created = new Date(placedAt).toISOString();
      const roll = random();
      const status: OrderStatus =
        roll < 0.75
          ? 'paid'
          : roll < 0.82
            ? 'pending_payment'
            : roll < 0.9
              ? 'expired'
              : roll < 0.95
                ? 'cancelled'
                : 'payment_failed';
      const fulfilment: Fulfilment =
        status !== 'paid'
          ? 'unfulfilled'
          : random() < 0.8
            ? 'delivered'
            : random() < 0.5
              ? 'dispatched'
              : 'unfulfilled';
      const lines = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
        const stock = pick(stocks);
        const quantity = 1 + Math.floor(random() * 2);
        return {
          product_stock_id: stock.id,
          product_id: stock.product_id,
          title: stock.title,
          size_name: stock.size_name,
          unit_price: stock.price,
          quantity,
          line_total: stock.price * quantity,
        };
      });
      const items = lines.reduce((sum, line) => sum + line.line_total, 0);
      const delivery = items >= 5_000 ? 0 : 495;
      const [town, area] = pick(towns);
      const postcode = `${area}${1 + Math.floor(random() * 20)} ${Math.floor(random() * 10)}${pick([...letters])}${pick([...letters])}`;
      const firstname = pick(firstNames);
      const lastname = pick(lastNames);
      const email = `${firstname}.${lastname}${Math.floor(random() * 1000)}@example.com`.toLowerCase();
      const provider = random() < 0.6 ? 'paypal' : 'opayo';
      const total = items + delivery;
      orders.push({
        order_number: ++orderNumber,
        order_code: `G${orderNumber.toString(36).toUpperCase()}${Math.floor(random() * 1e9).toString(36)}`
          .padEnd(20, 'X')
          .slice(0, 20),
        status,
        customer_id: null,
        title_id: 1,
        firstname,
        lastname,
        email,
        contact_number: '0121 496 0000',
        billing_line1: `${1 + Math.floor(random() * 200)} High Street`,
        billing_line2: '',
        billing_line3: '',
        billing_postcode: postcode,
        billing_town_city: town,
        billing_country_id: 1,
        billing_country_name: 'United Kingdom',
        delivery_line1: `${1 + Math.floor(random() * 200)} High Street`,
        delivery_line2: '',
        delivery_line3: '',
        delivery_postcode: postcode,
        delivery_town_city: town,
        delivery_country_id: 1,
        delivery_country_name: 'United Kingdom',
        delivery_method_id: 1,
        delivery_method_name: delivery === 0 ? 'Free standard delivery' : 'Standard delivery',
        delivery_price: delivery,
        voucher_code: null,
        items_total: items,
        discount_amount: 0,
        total_vat: Math.round(total / 6),
        total_excluding_delivery: items,
        total_including_delivery: total,
        created_at: created,
        reserved_until: new Date(Date.parse(created) + 3_600_000).toISOString(),
        updated_at: created,
        payment_provider: status === 'paid' || status === 'payment_failed' ? provider : null,
        payment_status: status === 'paid' ? 'Completed' : null,
        transaction_id: status === 'paid' ? `T${orderNumber}` : null,
        auth_code: null,
        paid_at: status === 'paid' ? new Date(Date.parse(created) + 120_000).toISOString() : null,
        payment_note: null,
        client_address: null,
        email_key: email,
        held_since: created,
        fulfilment,
        dispatched_at: fulfilment === 'unfulfilled' ? null : created,
        delivered_at: fulfilment === 'delivered' ? created : null,
        carrier: fulfilment === 'unfulfilled' ? null : 'Royal Mail',
        tracking_number: fulfilment === 'unfulfilled' ? null : `RM${orderNumber}GB`,
      });
      linesOf.push(lines);
    }
    await db.kysely.transaction().execute(async (trx) => {
      const ids = await trx.insertInto('orders').values(orders).returning('id').execute();
      const lines = ids.flatMap(({ id }, i) => linesOf[i]!.map((line) => ({ ...line, order_id: id })));
      for (let i = 0; i < lines.length; i += 500)
        await trx
          .insertInto('order_lines')
          .values(lines.slice(i, i + 500))
          .execute();
    });
  }
}
