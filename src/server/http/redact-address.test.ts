import { describe, expect, it } from 'vitest';
import { redactAddress } from './redact-address.ts';

/** The address a log line or span keeps: the secrets gone, what it was for still readable. */
describe('redactAddress', () => {
  it.each([
    ['/reset-password/abc123', '/reset-password/REDACTED'],
    ['/Verify-Account/abc123/', '/Verify-Account/REDACTED/'],
    ['/admin/set-password/abc%2Fdef', '/admin/set-password/REDACTED'],
    ['/api/order-status/AbCdEfGhIjKlMnOp', '/api/order-status/REDACTED'],
    ['/api/sagepay-config/1234?code=AbCdEfGhIjKlMnOp', '/api/sagepay-config/1234?code=REDACTED'],
    [
      '/api/payments/paypal-checkout/return?%54oken=5O190127&PayerID=X1',
      '/api/payments/paypal-checkout/return?%54oken=REDACTED&PayerID=REDACTED',
    ],
    ['/api/payments/opayo/return?crypt=@ABCDEF', '/api/payments/opayo/return?crypt=REDACTED'],
    ['/v2/checkout/orders/5O190127/capture', '/v2/checkout/orders/REDACTED/capture'],
    // A customer's invoice by the signed link in their e-mail: the signature opens it.
    ['/api/documents/invoice/100042/Zm9vYmFyYmF6', '/api/documents/invoice/100042/REDACTED'],
    ['/API/Documents/credit-note/7/Zm9v/', '/API/Documents/credit-note/7/REDACTED/'],
    // The customer's order page, its API and its page: the key opens the order (order-links.ts).
    ['/api/order-page/100042.c2lnbmF0dXJlLW9mLWl0', '/api/order-page/REDACTED'],
    ['/Api/Order-Page/100042.c2ln/', '/Api/Order-Page/REDACTED/'],
    ['/order/100042.c2lnbmF0dXJlLW9mLWl0', '/order/REDACTED'],
    // An order page's key, and its cancellation and returns under it.
    ['/api/order-page/1042.Zm9vYmFy/cancellation', '/api/order-page/REDACTED/cancellation'],
    ['/api/order-page/1042.Zm9vYmFy/returns', '/api/order-page/REDACTED/returns'],
    // The key whatever follows or precedes it: a segment more, a doubled slash, an encoded letter.
    ['/order/100042.c2lnbmF0dXJl/returns', '/order/REDACTED/returns'],
    ['/order/100042.c2lnbmF0dXJl/cancel', '/order/REDACTED/cancel'],
    ['/order/100042.c2lnbmF0dXJl/x', '/order/REDACTED/x'],
    ['//order/100042.c2lnbmF0dXJl', '//order/REDACTED'],
    ['/order//100042.c2lnbmF0dXJl', '/order//REDACTED'],
    ['/api//order-page/100042.c2lnbmF0dXJl', '/api//order-page/REDACTED'],
    ['/api/order-page//100042.c2lnbmF0dXJl/returns', '/api/order-page//REDACTED/returns'],
    ['/x/order/100042.c2lnbmF0dXJl', '/x/order/REDACTED'],
    ['/%6Frder/100042.c2lnbmF0dXJl', '/order/REDACTED'],
    ['/reset-password/abc123/more', '/reset-password/REDACTED/more'],
    ['//api/order-status/AbCdEfGh', '//api/order-status/REDACTED'],
    ['/api//documents/invoice/100042/Zm9vYmFy', '/api//documents/invoice/100042/REDACTED'],
    // A page reads no query but search's: whatever a provider's return brings is dropped.
    [
      '/checkout-confirm?tx=1&cm=code&st=Completed&bare',
      '/checkout-confirm?tx=REDACTED&cm=REDACTED&st=REDACTED&REDACTED',
    ],
  ])('%s is logged as %s', (address, logged) => {
    expect(redactAddress(address)).toBe(logged);
  });

  it('keeps what carries no secret', () => {
    for (const address of [
      '/search?k=tabla&s=price',
      '/api/admin/orders?q=smith&page=2',
      '/products/dhol',
      '/healthz',
      '/api/admin/orders/100042/invoice',
      '/orders',
    ])
      expect(redactAddress(address)).toBe(address);
  });
});
