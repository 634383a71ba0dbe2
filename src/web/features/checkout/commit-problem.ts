import { errorCodes, refusalMessages } from '../../../contract/error-codes.ts';
import { ApiRequestError, limitMessage } from '../../lib/api.ts';

/** The commit's refusals the shop words itself (docs/rules.md#orders-and-stock), by their error code. */
const refusalsByCode = new Map<string | undefined, string>([
  [errorCodes.tooManyUnpaidOrders, refusalMessages.tooManyUnpaidOrders],
  [errorCodes.orderHeldTooLong, refusalMessages.orderHeldTooLong],
  [errorCodes.orderAlreadyPaid, refusalMessages.orderAlreadyPaid],
  [errorCodes.unpaidOrderTooLarge, refusalMessages.unpaidOrderTooLarge],
  [errorCodes.orderTotalTooLarge, refusalMessages.orderTotalTooLarge],
  [errorCodes.nothingToPay, refusalMessages.nothingToPay],
]);

/** What the shopper is told when SECURE CHECKOUT could not place the order. */
export function commitProblemText(error: unknown): string {
  const refusal = error instanceof ApiRequestError ? refusalsByCode.get(error.code) : undefined;
  return refusal ?? limitMessage(error) ?? 'Your order could not be placed just now. Please try again.';
}
