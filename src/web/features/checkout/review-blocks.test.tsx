// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PricedBasket } from '../../../contract/basket.ts';
import { pricedBasket } from '../../../../test/helpers/priced-basket.ts';
import { FinalSummary } from './review-blocks.tsx';

/** The order of the walk-through: £14.00 of items, TENOFF, standard delivery. */
function recoveredOrder(overrides: Partial<PricedBasket> = {}): PricedBasket {
  return pricedBasket({
    deliveryMethodRateId: 1,
    deliveryPrice: 495,
    deliveryMethodName: 'Standard delivery',
    appliedVouchers: [{ code: 'TENOFF' }],
    lastVoucherOutcome: 1,
    itemCount: 2,
    itemsTotal: 1400,
    discountAmount: 1000,
    totalVat: 149,
    totalPriceExcludingDelivery: 400,
    totalPriceIncludingDelivery: 895,
    orderNumber: 100001,
    orderCode: 'AAAAAAAAAAAAAAAAAAAAAA',
    ...overrides,
  });
}

describe('FINAL SUMMARY', () => {
  afterEach(cleanup);

  it('shows a discount and names its voucher, so the lines add up to the total (as order recovery shows it)', () => {
    render(<FinalSummary priced={recoveredOrder()} headingId="summary" />);
    const summary = within(screen.getByRole('complementary', { name: 'FINAL SUMMARY' }));
    expect(summary.getByText('Discount (TENOFF)')).toBeTruthy();
    expect(summary.getByText('-£10.00')).toBeTruthy();
    expect(summary.getByText('£8.95')).toBeTruthy();
  });

  it('shows no discount line for an order without one', () => {
    render(<FinalSummary priced={recoveredOrder({ appliedVouchers: [], discountAmount: 0 })} headingId="summary" />);
    expect(screen.queryByText(/^Discount/)).toBeNull();
  });
});
