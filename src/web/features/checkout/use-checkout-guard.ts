import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { guestSchema } from '../../../contract/basket.ts';
import { basketStore, isCompleteAddress, type BasketState } from '../../lib/basket/basket-store.ts';

/** Your Details is done: a valid contact and a complete billing address (docs/rules.md#checkout). */
export function detailsComplete(basket: BasketState): boolean {
  return guestSchema.safeParse(basket.guest).success && isCompleteAddress(basket.billingAddress);
}

/**
 * docs/rules.md#checkout: the checkout steps send an empty basket to /, and the basket is verified on
 * arrival; `onVerified` may send the shopper elsewhere (errors to the cart, no delivery to step 2).
 * A step after Your Details (`needsDetails`) sends a basket without them back to it, so no step can
 * be skipped by opening its address (docs/rules.md#checkout). Delivery counts only with a complete address.
 * A basket emptied behind the page (in another tab, or because its order was paid elsewhere) sends
 * the shopper to the cart, which says why (issue 32).
 */
export function useCheckoutGuard(
  onVerified?: (hasErrors: boolean, hasDelivery: boolean) => string | undefined | Promise<string | undefined>,
  needsDetails = false,
) {
  const navigate = useNavigate();
  useEffect(
    () =>
      basketStore.subscribe(() => {
        const { items, notice } = basketStore.getSnapshot();
        if (items.length === 0 && notice) void navigate('/shoppingcart', { replace: true });
      }),
    [navigate],
  );
  useEffect(() => {
    const basket = basketStore.getSnapshot();
    if (basket.items.length === 0) {
      void navigate(basket.notice ? '/shoppingcart' : '/', { replace: true });
      return;
    }
    if (needsDetails && !detailsComplete(basket)) {
      void navigate('/checkout-details', { replace: true });
      return;
    }
    basketStore
      .verify()
      .then(async (priced) => {
        // Its order was paid elsewhere: the basket is emptied, and the cart says so.
        if (typeof priced.paidOrderNumber === 'number') return;
        if (priced.items.length === 0) return void navigate('/', { replace: true });
        const to = await onVerified?.(
          priced.items.some((line) => line.hasError),
          priced.deliveryMethodRateId !== null &&
            priced.deliveryPrice !== null &&
            isCompleteAddress(priced.deliveryAddress),
        );
        if (to) void navigate(to, { replace: true });
      })
      .catch(() => undefined);
    // Runs once on arrival, as the spec's pages do.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
