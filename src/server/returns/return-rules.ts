import { formatPence } from '../../contract/money.ts';
import type { ReturnReason } from '../../contract/returns.ts';
import { returnReasons } from '../../contract/returns.ts';

/**
 * The rules of returns (docs/rules.md#returns), pure: the 14-day window, the units a line may
 * still send back, the reasons a product allows and what a refund comes to. The Consumer Contracts
 * Regulations 2013 give 14 days from delivery; a refund within 14 days of the goods coming back,
 * with standard outbound delivery when the whole order comes back; a deduction for diminished
 * value only, never a restocking fee.
 */

export const RETURN_WINDOW_DAYS = 14;
export const REFUND_DUE_DAYS = 14;
const DAY_MS = 86_400_000;

/**
 * The last moment units may be asked back: the end of the 14th day after delivery, or, when the
 * delivery was not recorded, after their dispatch plus the method's transit days.
 */
export function windowEndOf(unit: { dispatchedAt: string; deliveredAt: string | null; transitDays: number }): string {
  const start = unit.deliveredAt
    ? Date.parse(unit.deliveredAt)
    : Date.parse(unit.dispatchedAt) + unit.transitDays * DAY_MS;
  const day = Math.floor(start / DAY_MS) * DAY_MS;
  return new Date(day + (RETURN_WINDOW_DAYS + 1) * DAY_MS - 1).toISOString();
}

export function refundDueOf(receivedAt: string): string {
  return new Date(Date.parse(receivedAt) + REFUND_DUE_DAYS * DAY_MS).toISOString();
}

/** A made-to-order product may come back faulty, damaged or wrong, never for a change of mind. */
export function reasonsFor(madeToOrder: boolean): ReturnReason[] {
  return madeToOrder ? returnReasons.filter((reason) => reason !== 'changed_mind') : [...returnReasons];
}

export interface LineFacts {
  quantity: number;
  lineTotal: number;
  /** Each of its fulfilments' units, with when they went. */
  sent: Array<{ quantity: number; windowEndsAt: string }>;
  /** Units in returns not refused (this one's not included). */
  inReturns: number;
  /** Units sent that refunds other than returns' put back in stock (never those put back unsent). */
  sentRestockedByOtherRefunds: number;
}

/** Units of a line that may be asked back now, and the window's end for them. */
export function returnableNow(line: LineFacts, now: Date): { units: number; windowEndsAt: string | null } {
  const open = line.sent.filter((sent) => Date.parse(sent.windowEndsAt) >= now.getTime());
  const inWindow = open.reduce((sum, sent) => sum + sent.quantity, 0);
  // Units earlier returns or refunds took are taken from the oldest fulfilments first, the ones
  // whose window ends soonest; what is left of the open ones may come back.
  const sentInAll = line.sent.reduce((sum, sent) => sum + sent.quantity, 0);
  const taken = line.inReturns + line.sentRestockedByOtherRefunds;
  const closedUnits = sentInAll - inWindow;
  const units = Math.max(0, inWindow - Math.max(0, taken - closedUnits));
  const ends = open.map((sent) => sent.windowEndsAt).sort();
  return { units, windowEndsAt: units > 0 ? (ends.at(-1) ?? null) : null };
}

/**
 * Why a deduction for diminished value may not be taken, if it may not. Regulation 34(9)-(12): it
 * answers for handling beyond what was needed to see the goods, so only a change of mind can carry
 * one (goods that came back faulty, damaged or wrong are refunded whole), and it comes off the
 * goods' price only: the outbound delivery is refunded in full.
 */
export function deductionRefusal(reason: ReturnReason, deduction: number, goods: number): string | undefined {
  if (deduction === 0) return undefined;
  if (reason !== 'changed_mind')
    return 'A deduction for diminished value is for a change of mind only: goods that came back faulty, damaged or wrong are refunded in full.';
  if (deduction > goods)
    return `A deduction for diminished value comes off the goods only: at most ${formatPence(goods)}, never the delivery.`;
  return undefined;
}

/**
 * The refund: the goods as paid less a deduction for diminished value (see deductionRefusal), plus
 * standard outbound delivery when the whole order came back; never more than is left of what was paid.
 */
export function refundOf(due: { goods: number; delivery: number; cap: number }, deduction: number): number {
  const goods = Math.max(0, due.goods - deduction);
  return Math.max(0, Math.min(goods + due.delivery, due.cap));
}
