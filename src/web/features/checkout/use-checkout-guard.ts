import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { basketStore } from '../../lib/basket/basket-store.ts';

/**
 * docs/rules.md#checkout: the checkout steps send an empty basket to /, and the basket is verified on
 * arrival; `onVerified` may send the shopper elsewhere (errors to the cart, no delivery to step 2).
 */
export function useCheckoutGuard(onVerified?: (hasErrors: boolean, hasDelivery: boolean) => string | undefined) {
  const navigate = useNavigate();
  useEffect(() => {
    if (basketStore.getSnapshot().items.length === 0) {
      void navigate('/', { replace: true });
      return;
    }
    basketStore
      .verify()
      .then((priced) => {
        if (priced.items.length === 0) return void navigate('/', { replace: true });
        const to = onVerified?.(
          priced.items.some((line) => line.hasError),
          priced.deliveryMethodRateId !== null && priced.deliveryPrice !== null,
        );
        if (to) void navigate(to, { replace: true });
      })
      .catch(() => undefined);
    // Runs once on arrival, as the spec's pages do.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
