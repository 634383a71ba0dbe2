import { describe, expect, it } from 'vitest';
import { testMailBrand } from '../../../test/helpers/mail-brand.ts';
import { sampleOrder } from '../../../test/helpers/mail-samples.ts';
import { renderBodies } from '../mail/mailer.ts';
import { orderConfirmationEmail } from './order-emails.ts';

const brand = testMailBrand();
const textOf = (message: Parameters<typeof renderBodies>[0]) => renderBodies(message, brand).text;

const order = sampleOrder;
const tabla = [{ title: 'Tabla set', size_name: 'Standard', quantity: 1, line_total: 1400 }];

describe('the order confirmation e-mail (issue 32, item 10)', () => {
  it('gives an Opayo transaction id without its braces, and no discount line without a discount', () => {
    const text = textOf(orderConfirmationEmail(order, tabla));
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
    const text = textOf(orderConfirmationEmail(collected, tabla));
    expect(text).toContain('We will e-mail you when it is ready to collect.');
    expect(text).toContain('To collect: Collect from the Leicester shop');
    expect(text).not.toMatch(/delivery address|for delivery/i);
  });

  it('names a delivered order’s method once, without brackets inside brackets', () => {
    const text = textOf(
      orderConfirmationEmail({ ...order, delivery_method_name: 'Standard delivery (3 working days)' }, tabla),
    );
    expect(text).toContain('Delivery, Standard delivery (3 working days): £4.95');
    expect(text).toContain('Delivery address: 12 Market Street, West Bromwich, B70 7NJ');
  });
});
