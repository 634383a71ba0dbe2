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
};

describe('the order confirmation e-mail (issue 32, item 10)', () => {
  it('gives an Opayo transaction id without its braces, and no discount line without a discount', () => {
    const text = orderConfirmationEmail(order, [
      { title: 'Tabla set', size_name: 'Standard', quantity: 1, line_total: 1400 },
    ]).paragraphs.join('\n');
    expect(text).toContain('(transaction 7E3B1C2D-0000-4A5B-9C8D-1234567890AB)');
    expect(text).not.toMatch(/[{}]/);
    expect(text).not.toContain('Discount');
  });
});
