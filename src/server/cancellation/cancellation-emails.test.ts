import { describe, expect, it } from 'vitest';
import { cancellationAlertToShop, type CancellationMail } from './cancellation-emails.ts';

/** The shop's alert speaks of the customer, never to them: "your PayPal account" is the shop's. */
describe("the shop's cancellation alert", () => {
  const mail = (refundsTo: string): CancellationMail => ({
    orderNumber: 100042,
    whole: true,
    cancelled: [{ title: 'Dhol', sizeName: 'Large', quantity: 1 }],
    amount: 7957,
    refundsTo,
    pending: false,
  });
  const refundLine = (refundsTo: string) =>
    cancellationAlertToShop(
      'shop@example.com',
      { firstname: 'Ann', lastname: 'Lee' },
      mail(refundsTo),
      'https://x/admin',
    ).paragraphs!.find((p) => p.includes('was refunded'));

  it.each([
    ['to your PayPal account', "£79.57 was refunded to the customer's PayPal account."],
    ['to the card you paid with', '£79.57 was refunded to the card the customer paid with.'],
    ['the way you paid', '£79.57 was refunded the way the customer paid.'],
  ])('says "%s" as the customer\'s', (refundsTo, line) => {
    expect(refundLine(refundsTo)).toBe(line);
  });
});
