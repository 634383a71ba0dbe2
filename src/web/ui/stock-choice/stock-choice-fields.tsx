import type { ProductStock } from '../../../contract/catalog.ts';
import { formatPence } from '../../lib/format.ts';
import type { StockChoice } from './use-stock-choice.ts';

/**
 * The size/style dropdown, the quantity box and the message line under them, for the product page
 * and the product card; each caller keeps its own wording and layout through the props.
 */
export function StockChoiceFields(props: {
  /** The caller's useId(): the fields are `${id}-size`, `${id}-qty` and `${id}-error`. */
  id: string;
  stocks: ProductStock[];
  choice: StockChoice;
  sizeLabel: string;
  showSizes: boolean;
  quantityClassName: string;
  /** The quantity box names the message line always, or only while there is a message. */
  describeAlways: boolean;
  /** Called after each change of size or quantity. */
  onEdit?: () => void;
}) {
  const { id, choice } = props;
  return (
    <>
      {props.showSizes && (
        <div className="field">
          <label htmlFor={`${id}-size`}>{props.sizeLabel}</label>
          <select
            id={`${id}-size`}
            className="input"
            value={choice.stockId ?? ''}
            onChange={(event) => {
              choice.chooseStock(Number(event.target.value));
              props.onEdit?.();
            }}
          >
            {props.stocks.map((s) => (
              <option key={s.id} value={s.id}>
                {s.productSizeName} - {formatPence(s.price)}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-qty`}>Quantity</label>
        <input
          id={`${id}-qty`}
          className={props.quantityClassName}
          inputMode="numeric"
          autoComplete="off"
          value={choice.quantity}
          aria-invalid={choice.error ? true : undefined}
          aria-describedby={props.describeAlways || choice.error ? `${id}-error` : undefined}
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
