import type { Generated } from 'kysely';
import type { DeliveryKind, Fulfilment, OrderStatus } from '../../contract/order-status.ts';
import type { ProductStatus } from '../../contract/catalog-rules.ts';
import type { LabelStatus } from '../../contract/admin/shipping.ts';

/** Table shapes as Kysely sees them. Column names are snake_case; the contract speaks camelCase. */

export interface ProductTypeTable {
  id: number;
  name: string;
  parent_id: number;
  sort_order: number;
}

export interface BrandTable {
  id: number;
  name: string;
  /** Where staff put it in the list (migration 0012); brands of equal order go by name. */
  sort_order: Generated<number>;
}

export interface ProductTable {
  id: Generated<number>;
  url_key: string;
  title: string;
  brand_id: number;
  product_type_id: number;
  description: string;
  seo_title: string;
  seo_keywords: string;
  seo_description: string;
  /**
   * Words naming what the product is, indexed for search: its own `tags`, its type's and the type's
   * ancestors' names and its brand's name (kept in step by the server: catalog/search-index.ts).
   */
  search_tags: string;
  /** Everything else a shopper may search by: sizes, styles, description. */
  search_text: string;
  /** Only published products are shown to shoppers (migration 0012; docs/back-office.md#catalogue). */
  status: Generated<ProductStatus>;
  /** The search tags staff typed (migration 0012); `search_tags` adds the type and brand names to them. */
  tags: Generated<string>;
  /** 1 when it is made for the order (migration 0032): no return for a change of mind. */
  made_to_order: Generated<number>;
}

/** An old URL key of a product: its page answers a 301 to the product's current one (migration 0012). */
export interface ProductUrlRedirectTable {
  old_key: string;
  product_id: number;
  created_at: string;
}

/** Which products changed in what search reads, in order (migration 0020; docs/decisions/0017-in-process-search-index.md). */
export interface SearchChangeTable {
  id: Generated<number>;
  product_id: number;
}

export interface ProductImageTable {
  id: Generated<number>;
  product_id: number;
  image_url: string;
  sort_order: number;
}

export interface ProductStockTable {
  id: Generated<number>;
  product_id: number;
  size_name: string;
  price: number;
  price_reduction: number;
  price_without_discount: number;
  stock: number;
  sort_order: number;
  /** What one unit weighs, and its own box's size unless it is sent in a preset (migration 0037). */
  weight_grams: number | null;
  length_mm: number | null;
  width_mm: number | null;
  height_mm: number | null;
  packaging_id: number | null;
}

/** A box or crate a size is sent in (migration 0037): its size, and its own weight when empty. */
export interface PackagingTable {
  id: Generated<number>;
  name: string;
  length_mm: number;
  width_mm: number;
  height_mm: number;
  weight_grams: number;
}

/** An order's label bought from the carrier (migration 0037, docs/back-office.md#shipping-labels). */
export interface ShippingLabelTable {
  id: Generated<number>;
  order_id: number;
  status: LabelStatus;
  service: string;
  package_format: string;
  weight_grams: number;
  carrier_order_id: number | null;
  tracking_number: string | null;
  error: string | null;
  fulfilment_id: number | null;
  created_at: string;
  updated_at: string;
  staff_email: string | null;
  /** Its reference in Click & Drop: the order number and a random tail (migration 0038). */
  carrier_reference: string;
}

export interface CountryTable {
  id: number;
  name: string;
  iso_code: string;
}

export interface TitleTable {
  id: number;
  name: string;
  sort_order: number;
}

export interface DeliveryMethodTable {
  id: number;
  country_id: number;
  name: string;
  rate: number;
  min_items_total: number | null;
  max_items_total: number | null;
  sort_order: number;
  active: number;
  /** Sent to the customer or collected by them (migration 0028). */
  kind: Generated<DeliveryKind>;
  /** Days a parcel takes (migration 0032): a return window starts then when delivery is not recorded. */
  transit_days: Generated<number>;
  /** The carrier service it is sent by, and its package format, for labels (migration 0037). */
  carrier_service: string | null;
  package_format: string | null;
}

export interface VoucherTable {
  id: Generated<number>;
  code: string;
  kind: 'percent' | 'fixed';
  amount: number;
  min_spend: number;
  valid_from: string;
  valid_to: string;
  usage_limit: number | null;
  times_used: Generated<number>;
  active: Generated<number>;
}

export interface CounterTable {
  name: string;
  value: number;
}

/** The statuses live in the contract (src/contract/order-status.ts); the column holds one. */
export type { OrderStatus };

export interface OrderTable {
  id: Generated<number>;
  order_number: number;
  order_code: string;
  status: OrderStatus;
  customer_id: number | null;
  title_id: number;
  firstname: string;
  lastname: string;
  email: string;
  contact_number: string;
  billing_line1: string;
  billing_line2: string;
  billing_line3: string;
  billing_postcode: string;
  billing_town_city: string;
  billing_country_id: number;
  billing_country_name: string;
  delivery_line1: string;
  delivery_line2: string;
  delivery_line3: string;
  delivery_postcode: string;
  delivery_town_city: string;
  delivery_country_id: number;
  delivery_country_name: string;
  delivery_method_id: number;
  delivery_method_name: string;
  /** Its delivery method's kind when it was placed (migration 0028): how it is fulfilled. */
  delivery_kind: Generated<DeliveryKind>;
  delivery_price: number;
  voucher_code: string | null;
  items_total: number;
  discount_amount: number;
  total_vat: number;
  total_excluding_delivery: number;
  total_including_delivery: number;
  created_at: string;
  reserved_until: string;
  updated_at: string;
  payment_provider: string | null;
  payment_status: string | null;
  transaction_id: string | null;
  auth_code: string | null;
  paid_at: string | null;
  payment_note: string | null;
  /** The client the order was placed from (an IPv6 client by its /64; migration 0008), for the unpaid-order caps. */
  client_address: string | null;
  /** The e-mail address as the unpaid-order caps count it (migration 0008): see emailKeyOf. */
  email_key: string | null;
  /** When the first order of its chain of replacements was placed (migration 0008). */
  held_since: string | null;
  /** The unpaid order this one was committed in place of (migration 0023); see paidOrderOfChain. */
  replaces_order_id: number | null;
  /** When the shop was e-mailed of this paid order (migration 0027); null until then. */
  shop_notified_at: Generated<string | null>;
  /** Pence refunded or reversed so far (migration 0010); the order stays paid. */
  refunded_total: Generated<number>;
  /** How far a paid order has gone on its way (migration 0011); see src/contract/order-status.ts. */
  fulfilment: Generated<Fulfilment>;
  /** 1 while the order's units are taken from stock on its account (migration 0011). */
  holds_stock: Generated<number>;
  carrier: string | null;
  tracking_number: string | null;
  dispatched_at: string | null;
  delivered_at: string | null;
  /** The PayPal Checkout order being captured for it, and since when (migration 0018). */
  capture_claim: string | null;
  capture_claimed_at: string | null;
  /** When staff cancelled it (migration 0019); null for any other order, a replaced one too. */
  staff_cancelled_at: string | null;
  /** What the order page's links are signed with (migration 0031); staff raise it to revoke them. */
  link_version: Generated<number>;
}

/** Why a payment an order received is to be sent back. */
export type RefundDueReason = 'paid twice' | 'cancelled by staff';

/** A payment an order should not keep, for staff to refund (migration 0018). */
export interface PaymentToRefundTable {
  id: Generated<number>;
  order_id: number;
  provider: string;
  /** The provider's id for the payment (a PayPal capture id, an IPN txn_id, an Opayo VPSTxId). */
  reference: string;
  amount: number;
  reason: RefundDueReason;
  received_at: string;
}

/** A refund, reversal or cancelled reversal the provider reported (migration 0010). */
export interface OrderRefundTable {
  id: Generated<number>;
  order_id: number;
  kind: 'refund' | 'reversal' | 'reversal_cancelled';
  amount: number;
  provider: string;
  provider_reference: string;
  recorded_at: string;
  /** Why staff recorded it (migration 0011). */
  note: string | null;
}

/** The provider's own id for a handoff it created for an order (migration 0015). */
export interface ProviderCheckoutTable {
  id: Generated<number>;
  order_id: number;
  provider: string;
  reference: string;
  created_at: string;
}

/** A refund staff asked a provider to make, its amount reserved first (migration 0015; ADR 0013). */
export interface RefundRequestTable {
  id: Generated<number>;
  order_id: number;
  provider: string;
  amount: number;
  status: 'pending' | 'refunded' | 'refused';
  request_id: string;
  provider_reference: string | null;
  note: string;
  created_at: string;
  settled_at: string | null;
}

/**
 * Units a refund request will put back in stock, per order line, held while it is pending and
 * removed when they are put back (migration 0017).
 */
export interface RefundRequestLineTable {
  id: Generated<number>;
  refund_request_id: number;
  order_line_id: number;
  quantity: number;
  /** Of those units, how many had been sent and came back (migration 0034). */
  returned_after_dispatch: Generated<number>;
}

/** Units a recorded refund put back in stock, per order line (migration 0011). */
export interface OrderRefundLineTable {
  id: Generated<number>;
  refund_id: number;
  order_line_id: number;
  quantity: number;
  /** Of those units, how many had been sent and came back (migration 0034). */
  returned_after_dispatch: Generated<number>;
}

export interface PaymentEventTable {
  id: Generated<number>;
  event_key: string;
  provider: string;
  order_id: number | null;
  provider_status: string;
  outcome: string;
  body: string;
  received_at: string;
}

export interface OrderLineTable {
  id: Generated<number>;
  order_id: number;
  product_stock_id: number;
  product_id: number;
  title: string;
  size_name: string;
  unit_price: number;
  quantity: number;
  line_total: number;
  /** Units sent so far, in its fulfilments (migration 0029). */
  dispatched: Generated<number>;
}

/** Some units of an order's lines sent together, tracked or not (migration 0029). */
export interface FulfilmentTable {
  id: Generated<number>;
  order_id: number;
  method: 'tracked' | 'untracked';
  /** The untracked service: 'Royal Mail 1st Class'. */
  service: string | null;
  created_at: string;
  staff_id: number | null;
  staff_email: string | null;
}

export interface FulfilmentLineTable {
  fulfilment_id: number;
  order_line_id: number;
  quantity: number;
}

export interface FulfilmentParcelTable {
  id: Generated<number>;
  fulfilment_id: number;
  carrier: string;
  tracking_number: string;
}

export interface CustomerTable {
  id: Generated<number>;
  email: string;
  title_id: number;
  firstname: string;
  lastname: string;
  password_hash: string;
  contact_number: Generated<string>;
  verified_at: string | null;
  created_at: string;
  billing_line1: Generated<string>;
  billing_line2: Generated<string>;
  billing_line3: Generated<string>;
  billing_postcode: Generated<string>;
  billing_town_city: Generated<string>;
  billing_country_id: number | null;
  delivery_line1: Generated<string>;
  delivery_line2: Generated<string>;
  delivery_line3: Generated<string>;
  delivery_postcode: Generated<string>;
  delivery_town_city: Generated<string>;
  delivery_country_id: number | null;
  /** When the customer was erased on request (migration 0011): the row keeps no personal data. */
  erased_at: string | null;
}

export interface AccountTokenTable {
  id: Generated<number>;
  customer_id: number;
  purpose: 'verify' | 'reset';
  token_hash: string;
  expires_at: string;
  used_at: string | null;
}

export interface SessionTable {
  id: Generated<number>;
  token_hash: string;
  customer_id: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface ContactMessageTable {
  id: Generated<number>;
  email: string;
  name: string;
  phone: string;
  message: string;
  created_at: string;
}

export interface RateLimitHitTable {
  key: string;
  hits: number;
  /** Milliseconds since the epoch; PostgreSQL's bigint arrives as a string. */
  window_ends_at: number | string;
}

/** Values made once per database (migration 0009), such as the PayPal sandbox's signing key. */
export interface SettingTable {
  name: string;
  value: string;
}

export type MailStatus = 'pending' | 'sending' | 'sent' | 'failed';

/** A queued e-mail (migration 0007): sent by whichever instance claims it, retried with backoff. */
export interface MailQueueTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  /** The message's body: a JSON array of paragraphs, or `{ template }`, a template's name and data (mail-queue.repository.ts). */
  paragraphs: string;
  status: MailStatus;
  attempts: Generated<number>;
  next_attempt_at: string;
  claimed_until: string | null;
  claim_token: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  /** Where a reply goes, when not to the shop (a contact enquiry's sender); emptied once sent. */
  reply_to: string | null;
}

/** A back-office account (migration 0011); staff are not customers. */
export interface StaffTable {
  id: Generated<number>;
  email: string;
  name: string;
  /** Owner or not (migration 0011's CHECK), kept in step with `role_id` by the repository. */
  role: 'owner' | 'staff';
  /** The member's role (migration 0036); null only before it ran. */
  role_id: number | null;
  password_hash: string | null;
  totp_secret: string | null;
  totp_enabled: Generated<number>;
  /** PostgreSQL's bigint arrives as a string. */
  totp_last_step: number | string | null;
  created_at: string;
  disabled_at: string | null;
}

export interface StaffTokenTable {
  id: Generated<number>;
  staff_id: number;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
}

/** A member's single-use two-factor recovery code, its SHA-256 only (migration 0035). */
/** A named set of permissions (migration 0036); `is_owner`: the built-in owner role, holding all. */
export interface StaffRoleTable {
  id: Generated<number>;
  name: string;
  /** Comma-separated permissions (src/contract/admin/permissions.ts). */
  permissions: string;
  is_owner: number;
}

export interface StaffRecoveryCodeTable {
  id: Generated<number>;
  staff_id: number;
  code_hash: string;
  used_at: string | null;
}

export interface StaffSessionTable {
  id: Generated<number>;
  token_hash: string;
  staff_id: number;
  created_at: string;
  idle_until: string;
  expires_at: string;
  revoked_at: string | null;
}

/** One staff action: who, when, what, and the fields it changed before and after (JSON). */
export interface AuditLogTable {
  id: Generated<number>;
  staff_id: number | null;
  staff_email: string;
  at: string;
  action: string;
  entity_type: string;
  entity_id: string;
  before: string | null;
  after: string | null;
}

/** One stock adjustment by staff (migration 0014): a delta with a reason, and the level it left. */
export interface StockAdjustmentTable {
  id: Generated<number>;
  product_stock_id: number;
  staff_id: number | null;
  staff_email: string;
  at: string;
  delta: number;
  reason: 'received' | 'damaged' | 'correction';
  note: string | null;
  stock_after: number;
}

/** An uploaded product photo (migration 0013); the lowest position is the main image. */
export interface ProductPhotoTable {
  id: Generated<number>;
  product_id: number;
  photo_key: string;
  position: number;
  width: number;
  height: number;
  source_format: 'jpeg' | 'png' | 'webp';
  source_bytes: number;
  created_at: string;
}

/** One photo at one width in one format. */
export interface ProductPhotoVariantTable {
  id: Generated<number>;
  photo_id: number;
  format: 'webp' | 'avif';
  width: number;
  height: number;
  byte_size: number;
}

/** The database store's bytes of a variant (docs/decisions/0011-product-photo-storage.md). */
export interface ProductPhotoBytesTable {
  variant_id: number;
  bytes: Buffer;
}

/** A VAT invoice as issued (migration 0026): `document` is its JSON (contract/documents.ts). */
export interface InvoiceTable {
  id: Generated<number>;
  order_id: number;
  order_number: number;
  invoice_number: number;
  issued_at: string;
  document: string;
}

/** A credit note for one refund, as issued (migration 0026). */
export interface CreditNoteTable {
  id: Generated<number>;
  order_id: number;
  order_number: number;
  refund_id: number;
  invoice_id: number;
  credit_note_number: number;
  issued_at: string;
  document: string;
}

export type ReturnStatus = 'requested' | 'authorised' | 'refused' | 'received' | 'refunded';
export type ReturnReason = 'changed_mind' | 'faulty' | 'damaged_in_transit' | 'wrong_item';
export type ReturnCondition = 'as_new' | 'opened' | 'used' | 'damaged' | 'faulty';

/** A shopper's request to return dispatched units (migration 0032; docs/rules.md#returns). */
export interface ReturnTable {
  id: Generated<number>;
  ra_number: string;
  order_id: number;
  status: ReturnStatus;
  reason: ReturnReason;
  note: Generated<string>;
  refusal_reason: string | null;
  requested_at: string;
  authorised_at: string | null;
  refused_at: string | null;
  received_at: string | null;
  refund_due_at: string | null;
  refunded_at: string | null;
  refund_amount: number | null;
  deduction: Generated<number>;
  deduction_reason: string | null;
}

export interface ReturnLineTable {
  id: Generated<number>;
  return_id: number;
  order_line_id: number;
  quantity: number;
  restocked: number | null;
  condition: ReturnCondition | null;
}

export interface ReturnPhotoTable {
  id: Generated<number>;
  return_id: number;
  position: number;
  content_type: 'image/jpeg' | 'image/png' | 'image/webp';
  byte_size: number;
  bytes: Buffer;
  created_at: string;
}

export interface Database {
  product_types: ProductTypeTable;
  brands: BrandTable;
  products: ProductTable;
  product_url_redirects: ProductUrlRedirectTable;
  product_images: ProductImageTable;
  search_changes: SearchChangeTable;
  product_stocks: ProductStockTable;
  packagings: PackagingTable;
  countries: CountryTable;
  titles: TitleTable;
  delivery_methods: DeliveryMethodTable;
  vouchers: VoucherTable;
  counters: CounterTable;
  orders: OrderTable;
  order_lines: OrderLineTable;
  fulfilments: FulfilmentTable;
  fulfilment_lines: FulfilmentLineTable;
  fulfilment_parcels: FulfilmentParcelTable;
  payment_events: PaymentEventTable;
  order_refunds: OrderRefundTable;
  provider_checkouts: ProviderCheckoutTable;
  refund_requests: RefundRequestTable;
  refund_request_lines: RefundRequestLineTable;
  payments_to_refund: PaymentToRefundTable;
  order_refund_lines: OrderRefundLineTable;
  customers: CustomerTable;
  account_tokens: AccountTokenTable;
  sessions: SessionTable;
  contact_messages: ContactMessageTable;
  rate_limit_hits: RateLimitHitTable;
  mail_queue: MailQueueTable;
  settings: SettingTable;
  staff: StaffTable;
  staff_tokens: StaffTokenTable;
  staff_sessions: StaffSessionTable;
  staff_recovery_codes: StaffRecoveryCodeTable;
  staff_roles: StaffRoleTable;
  audit_log: AuditLogTable;
  stock_adjustments: StockAdjustmentTable;
  product_photos: ProductPhotoTable;
  product_photo_variants: ProductPhotoVariantTable;
  product_photo_bytes: ProductPhotoBytesTable;
  invoices: InvoiceTable;
  credit_notes: CreditNoteTable;
  returns: ReturnTable;
  return_lines: ReturnLineTable;
  return_photos: ReturnPhotoTable;
  shipping_labels: ShippingLabelTable;
}
