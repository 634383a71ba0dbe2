import { errorCodes, refusalMessages } from '../../../contract/error-codes.ts';
import { ApiRequestError, limitMessage } from '../../lib/api.ts';

/** What the shopper is told when SECURE CHECKOUT could not place the order. */
export function commitProblemText(error: unknown): string {
  if (error instanceof ApiRequestError && error.code === errorCodes.tooManyUnpaidOrders)
    return refusalMessages.tooManyUnpaidOrders;
  if (error instanceof ApiRequestError && error.code === errorCodes.orderHeldTooLong)
    return refusalMessages.orderHeldTooLong;
  if (error instanceof ApiRequestError && error.code === errorCodes.unpaidOrderTooLarge)
    return refusalMessages.unpaidOrderTooLarge;
  return limitMessage(error) ?? 'Your order could not be placed just now. Please try again.';
}
