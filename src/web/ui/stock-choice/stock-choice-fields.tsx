import type { ProductStock } from '../../../contract/catalog.ts';
import { messages } from '../../../contract/messages.ts';
import { formatPence } from '../../lib/format.ts';
import type { StockChoice } from './use-stock-choice.ts';

/**
 * How each caller words and shows the fields: the product page always shows the dropdown, a card
 * only when there is more than one entry; the page's quantity box always names the message line,
 * a card's only while there is a message.
 */
const variants = {
  page: { sizeLabel: 'STYLE/SIZE', minStocksForSizes: 1, describeAlways: true },
  card: { sizeLabel: 'Size / Style', minStocksForSizes: 2, describeAlways: false },
} as const;

/** An option as the spec words it: size name, dash, price; sold-out sizes say so (docs/rules.md#basket). */
function optionText(stock: ProductStock | undefined): string {
  if (!stock) return '';
  return `${stock.productSizeName} - ${formatPence(stock.price)}${stock.stock <= 0 ? ` - ${messages.addToCart.soldOut}` : ''}`;
}

/**
 * The size/style dropdown, the quantity box and the message line under them, for the product page
 * and the product card.
 */
export function StockChoiceFields(props: {
  /** The caller's useId(): the fields are `${id}-size`, `${id}-qty` and `${id}-error`. */
  id: string;
  variant: keyof typeof variants;
  stocks: ProductStock[];
  choice: StockChoice;
  /** Added to the quantity box's `input` class. */
  quantityClassName?: string;
  /** Called after each change of size or quantity. */
  onEdit?: () => void;
}) {
  const { id, choice } = props;
  const variant = variants[props.variant];
  const chosen = props.stocks.find((s) => s.id === choice.stockId);
  const sizeSelect = (className: string) => (
    <select
      id={`${id}-size`}
      className={className}
      value={choice.stockId ?? ''}
      onChange={(event) => {
        choice.chooseStock(Number(event.target.value));
        props.onEdit?.();
      }}
    >
      {props.stocks.map((s) => (
        // Sold-out sizes stay listed, marked and not choosable.
        <option key={s.id} value={s.id} disabled={s.stock <= 0}>
          {optionText(s)}
        </option>
      ))}
    </select>
  );
  return (
    <>
      {props.stocks.length >= variant.minStocksForSizes && (
        <div className="field">
          <label htmlFor={`${id}-size`}>{variant.sizeLabel}</label>
          {props.variant === 'card' ? (
            // A card's select is narrower than its longest options: the chosen one is shown, wrapped,
            // under a select that keeps the clicks, the keys and the screen reader's announcement.
            <div className="stock-choice-shell">
              <span className="input stock-choice-shown" aria-hidden="true">
                {optionText(chosen)}
              </span>
              {sizeSelect('input stock-choice-select')}
            </div>
          ) : (
            sizeSelect('input')
          )}
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-qty`}>Quantity</label>
        <input
          id={`${id}-qty`}
          className={props.quantityClassName ? `input ${props.quantityClassName}` : 'input'}
          inputMode="numeric"
          autoComplete="off"
          value={choice.quantity}
          aria-invalid={choice.error ? true : undefined}
          aria-describedby={variant.describeAlways || choice.error ? `${id}-error` : undefined}
          onChange={(event) => {
            // Checked on every edit (the spec's key-up, and pastes too).
            choice.changeQuantity(event.target.value);
            props.onEdit?.();
          }}
        />
      </div>
      <p id={`${id}-error`} className="field-error" role="alert">
        {choice.error ?? ''}
      </p>
    </>
  );
}
