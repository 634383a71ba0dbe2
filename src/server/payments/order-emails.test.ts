import { describe, expect, it } from 'vitest';
import { orderConfirmationEmail } from './order-emails.ts';

const order = {
  order_number: 100042,
  order_code: 'AAAAAAAAAAAAAAAAAAAAAA',
  firstname: 'Asha',
  lastname: 'Kaur',
  email: 'asha@example.com',
  items_total: 1400,
  discount_amount: 0,
  delivery_price: 495,
  delivery_method_name: 'Standard delivery',
  total_vat: 316,
  total_including_delivery: 1895,
  transaction_id: '{7E3B1C2D-0000-4A5B-9C8D-1234567890AB}',
  billing_line1: '12 Market Street',
  billing_line2: '',
  billing_town_city: 'West Bromwich',
  billing_postcode: 'B70 7NJ',
  delivery_line1: '12 Market Street',
  delivery_line2: '',
  delivery_town_city: 'West Bromwich',
  delivery_postcode: 'B70 7NJ',
  delivery_kind: 'delivery' as const,
};
const tabla = [{ title: 'Tabla set', size_name: 'Standard', quantity: 1, line_total: 1400 }];

describe('the order confirmation e-mail (issue 32, item 10)', () => {
  it('gives an Opayo transaction id without its braces, and no discount line without a discount', () => {
    const text = orderConfirmationEmail(order, tabla).paragraphs.join('\n');
    expect(text).toContain('(transaction 7E3B1C2D-0000-4A5B-9C8D-1234567890AB)');
    expect(text).not.toMatch(/[{}]/);
    expect(text).not.toContain('Discount');
  });
});

describe('the confirmation of an order collected from the shop', () => {
  const collected = {
    ...order,
    delivery_kind: 'collection' as const,
    delivery_method_name: 'Collect from the Leicester shop',
    delivery_price: 0,
  };

  it('says it is being made ready to collect, and where, not that it is being delivered', () => {
    const text = orderConfirmationEmail(collected, tabla).paragraphs.join('\n');
    expect(text).toContain('We will e-mail you when it is ready to collect.');
    expect(text).toContain('To collect: Collect from the Leicester shop');
    expect(text).not.toMatch(/delivery address|for delivery/i);
  });

  it('names a delivered order’s method once, without brackets inside brackets', () => {
    const text = orderConfirmationEmail(
      { ...order, delivery_method_name: 'Standard delivery (3 working days)' },
      tabla,
    ).paragraphs.join('\n');
    expect(text).toContain('Delivery, Standard delivery (3 working days): £4.95');
    expect(text).toContain('Delivery address: 12 Market Street, West Bromwich, B70 7NJ');
  });
});
