import { useState } from 'react';
import { useNavigate } from 'react-router';
import { basketStore } from '../../lib/basket/basket-store.ts';
import { commitProblemText } from './commit-problem.ts';

/**
 * SECURE CHECKOUT on the review step: commits the basket; a committed order goes on to the payment
 * handoff, a basket with problems back to the cart, and a failure is said on the page.
 */
export function useSecureCheckout() {
  const navigate = useNavigate();
  const [committing, setCommitting] = useState(false);
  const [commitProblem, setCommitProblem] = useState<string | undefined>();
  const [handoff, setHandoff] = useState<{ orderCode: string; orderNumber: number } | undefined>();

  async function secureCheckout() {
    setCommitting(true);
    setCommitProblem(undefined);
    try {
      const result = await basketStore.commit();
      if (result.ok) setHandoff({ orderCode: result.orderCode, orderNumber: result.orderNumber });
      else void navigate('/shopping-cart');
    } catch (error) {
      setCommitProblem(commitProblemText(error));
    } finally {
      setCommitting(false);
    }
  }

  return { committing, commitProblem, handoff, secureCheckout };
}
