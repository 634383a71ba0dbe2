/**
 * A carrier the shop buys labels from, as the labels service sees it (docs/back-office.md#shipping-labels).
 * Click & Drop's client (click-and-drop/client.ts) is the one there is; the local sandbox speaks
 * the same API, so tests and the demo run the real client against it.
 */

/** One order as the carrier is asked to make it: our order number is its reference. */
export interface LabelRequest {
  reference: string;
  recipient: {
    fullName: string;
    addressLine1: string;
    addressLine2: string;
    addressLine3: string;
    city: string;
    postcode: string;
    countryCode: string;
    phoneNumber: string;
    emailAddress: string;
  };
  /** When the order was placed (ISO 8601). */
  orderDate: string;
  /** Pence. */
  subtotal: number;
  shippingCostCharged: number;
  total: number;
  serviceCode: string;
  packageFormat: string;
  weightGrams: number;
  dimensions: { lengthMm: number; widthMm: number; heightMm: number } | null;
  contents: Array<{ name: string; sku: string; quantity: number; unitValue: number; unitWeightGrams: number }>;
}

/** What the carrier made of one order: made (with its identifier and tracking number), or refused. */
export type LabelResult =
  | { reference: string; made: { carrierOrderId: number; trackingNumber: string | null } }
  | { reference: string; refused: string };

export interface LabelCarrier {
  /** Makes these orders; an order with a reference the carrier already holds answers that one. */
  create(requests: readonly LabelRequest[]): Promise<LabelResult[]>;
  /** The orders the carrier holds under these references (after an answer was lost). */
  find(
    references: readonly string[],
  ): Promise<Array<{ reference: string; carrierOrderId: number; trackingNumber: string | null }>>;
  /** The labels of these orders as one PDF, in the order given. */
  labels(carrierOrderIds: readonly number[]): Promise<Buffer>;
  /** Cancels these orders; answers the ones the carrier refused to cancel, with its words. */
  cancel(carrierOrderIds: readonly number[]): Promise<Array<{ carrierOrderId: number; message: string }>>;
}

/** The carrier could not be reached or did not answer: nothing is known of what it did. */
export class CarrierUnavailableError extends Error {}

/** The carrier answered with an error for the whole call (its own message). */
export class CarrierRefusedError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}
