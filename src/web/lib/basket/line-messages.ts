import { basketErrorCodes } from '../../../contract/basket-rules.ts';
import { messages } from '../../../contract/messages.ts';

/** Line errors' messages (docs/rules.md#basket). itemNotFound lines are removed silently, so have none. */
export function lineMessage(errorCode: number | null, availableStock: number): string | undefined {
  switch (errorCode) {
    case basketErrorCodes.itemOutOfStock:
      return messages.cart.itemOutOfStock;
    case basketErrorCodes.itemStockChange:
      return messages.cart.itemStockChange(availableStock);
    case basketErrorCodes.notEnoughStock:
      return messages.cart.notEnoughStock(availableStock);
    case basketErrorCodes.invalidQuantity:
      return messages.cart.invalidQuantity;
    case basketErrorCodes.itemUnavailable:
      return messages.cart.itemUnavailable;
    default:
      return undefined;
  }
}
