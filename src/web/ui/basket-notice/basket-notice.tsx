import { messages } from '../../../contract/messages.ts';
import type { BasketLineChange, BasketState } from '../../lib/basket/basket-store.ts';
import { useBasket } from '../../lib/basket/use-basket.ts';
import styles from './basket-notice.module.css';

function changeText(change: BasketLineChange, details: BasketState['details']): string {
  const detail = details[change.productStockId];
  const line = detail
    ? [detail.productTitle, detail.productSizeName].filter(Boolean).join(', ')
    : messages.basketNotice.unknownLine;
  if (change.before === 0) return messages.basketNotice.added(line, change.after);
  if (change.after === 0) return messages.basketNotice.removed(line);
  return messages.basketNotice.quantity(line, change.before, change.after);
}

/**
 * Says why the basket changed behind the page (issue 32): changed in another tab, line by line, or
 * emptied because its order was paid elsewhere. The live region is always there, so a screen reader
 * hears the notice when it appears.
 */
export function BasketNotice() {
  const { notice, details } = useBasket();
  return (
    <div role="status" className={notice ? styles.notice : undefined}>
      {notice?.kind === 'orderPaid' && <p>{messages.basketNotice.orderPaid(notice.orderNumber)}</p>}
      {notice?.kind === 'changedElsewhere' && (
        <>
          <p>{messages.basketNotice.changedElsewhere}</p>
          {notice.changes.length > 0 && (
            <ul>
              {notice.changes.map((change) => (
                <li key={change.productStockId}>{changeText(change, details)}</li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
