import type { AddressDraft, BasketLine, PricedBasket } from '../../../contract/basket.ts';
import { MADE_TO_ORDER_NOTE } from '../../../contract/made-to-order.ts';
import { formatPence } from '../../lib/format.ts';
import styles from './checkout.module.css';

/** The parts the Review and Order recovery pages share (docs/rules.md#checkout). */

/** Product, Quantity, and Price as unit price times quantity. */
export function ProductsTable({ lines }: { lines: BasketLine[] }) {
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          <th scope="col">Product</th>
          <th scope="col">Quantity</th>
          <th scope="col">Price</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr key={line.productStockId}>
            <td>
              {line.title} <span className={styles.size}>({line.sizeName})</span>
              {line.madeToOrder && <span className={styles.madeToOrder}>{MADE_TO_ORDER_NOTE}</span>}
            </td>
            <td>{line.requestedQty}</td>
            <td>{formatPence(line.lineTotal)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The spec's 'Discount Code Applied:' under the products, when a voucher applies. */
export function AppliedVouchers({ priced }: { priced: PricedBasket }) {
  if (priced.appliedVouchers.length === 0) return null;
  return (
    <p>
      Discount Code Applied: <strong>{priced.appliedVouchers.map((v) => v.code).join(', ')}</strong>
    </p>
  );
}

/** Name in upper case, e-mail in lower case, and the contact number. */
export function ContactBlock({ title = '', guest }: { title?: string; guest: PricedBasket['guest'] | undefined }) {
  return (
    <div>
      <h3>Contact Details</h3>
      <p>
        {`${title} ${guest?.firstname ?? ''} ${guest?.lastname ?? ''}`.trim().toUpperCase()}
        <br />
        {guest?.email?.toLowerCase()}
        <br />
        {guest?.contactNumber}
      </p>
    </div>
  );
}

/** An address as it is shown back to the shopper: its filled-in parts, the post code in upper case. */
export function addressParts(address: AddressDraft): string[] {
  return [
    address.line1,
    address.line2,
    address.line3,
    address.townCity,
    address.postcode?.toUpperCase(),
    address.countryName,
  ].filter((part): part is string => Boolean(part));
}

export function AddressBlock({ title, address }: { title: string; address: AddressDraft | null | undefined }) {
  if (!address) return null;
  return (
    <div>
      <h3>{title}</h3>
      <address>
        {addressParts(address).map((part, i) => (
          <span key={i}>
            {part}
            <br />
          </span>
        ))}
      </address>
    </div>
  );
}

/** "Discount", naming the voucher that gives it. */
function discountLabel(priced: PricedBasket): string {
  const codes = priced.appliedVouchers.map((v) => v.code).join(', ');
  return codes ? `Discount (${codes})` : 'Discount';
}

/**
 * FINAL SUMMARY: items, delivery, VAT, the discount, and the total. The spec leaves the discount off
 * order recovery's summary; shown whenever there is one, so its lines add up (docs/decisions/0003-storefront-choices.md#decision).
 * The spec lists Discount on Review's summary; with no voucher it read "Discount -£0.00", a line
 * about nothing, so it shows only when there is a discount (issue 32, item 10).
 */
export function FinalSummary(props: { priced: PricedBasket; headingId: string }) {
  const { priced } = props;
  return (
    <aside className={styles.summary} aria-labelledby={props.headingId}>
      <h2 id={props.headingId}>FINAL SUMMARY</h2>
      <dl>
        <div>
          <dt>{priced.itemCount} Items</dt>
          <dd>{formatPence(priced.itemsTotal)}</dd>
        </div>
        <div>
          <dt>Delivery</dt>
          <dd>{formatPence(priced.deliveryPrice ?? 0)}</dd>
        </div>
        <div>
          <dt>VAT (included)</dt>
          <dd>{formatPence(priced.totalVat)}</dd>
        </div>
        {priced.discountAmount > 0 && (
          <div>
            <dt>{discountLabel(priced)}</dt>
            <dd>-{formatPence(priced.discountAmount)}</dd>
          </div>
        )}
        <div className={styles.summaryTotal}>
          <dt>TOTAL</dt>
          <dd>{formatPence(priced.totalPriceIncludingDelivery)}</dd>
        </div>
      </dl>
    </aside>
  );
}
