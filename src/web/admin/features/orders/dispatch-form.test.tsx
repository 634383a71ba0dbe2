// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderDetail } from '../../../../contract/admin/orders.ts';
import { DispatchForm } from './dispatch-form.tsx';

const line = (id: number, quantity: number, dispatched = 0): OrderDetail['lines'][number] => ({
  id,
  productId: id,
  productStockId: id,
  title: `Tabla ${id}`,
  sizeName: 'Pair',
  unitPrice: 1000,
  quantity,
  lineTotal: 1000 * quantity,
  restocked: 0,
  dispatched,
  toDispatch: quantity - dispatched,
});
// Line 9 has gone already: it is not offered.
const order = { lines: [line(7, 2), line(8, 3, 1), line(9, 1, 1)] };

afterEach(cleanup);

describe('the dispatch form', () => {
  it('sends everything still to send by default, in one tracked parcel', async () => {
    const onSubmit = vi.fn(async () => true);
    render(<DispatchForm order={order} onSubmit={onSubmit} />);
    expect(screen.queryByLabelText(/Tabla 9/)).toBeNull();
    expect((screen.getByLabelText('Tabla 8 (Pair): units to send') as HTMLInputElement).value).toBe('2');
    await userEvent.type(screen.getByLabelText('Tracking number, parcel 1'), 'AB123456789GB');
    await userEvent.click(screen.getByRole('button', { name: 'Dispatch and e-mail the customer' }));
    expect(onSubmit).toHaveBeenCalledWith({
      lines: [
        { orderLineId: 7, quantity: 2 },
        { orderLineId: 8, quantity: 2 },
      ],
      parcels: [{ carrier: 'Royal Mail', trackingNumber: 'AB123456789GB' }],
    });
  });

  it('sends chosen units in several parcels, or untracked by a Royal Mail service', async () => {
    const onSubmit = vi.fn(async () => true);
    render(<DispatchForm order={order} onSubmit={onSubmit} />);
    await userEvent.clear(screen.getByLabelText(/Tabla 7/));
    await userEvent.type(screen.getByLabelText(/Tabla 7/), '1');
    await userEvent.clear(screen.getByLabelText(/Tabla 8/));
    await userEvent.type(screen.getByLabelText(/Tabla 8/), '0');
    await userEvent.type(screen.getByLabelText('Tracking number, parcel 1'), 'A1');
    await userEvent.click(screen.getByRole('button', { name: 'Add a parcel' }));
    await userEvent.clear(screen.getByLabelText('Carrier, parcel 2'));
    await userEvent.type(screen.getByLabelText('Carrier, parcel 2'), 'DPD');
    await userEvent.type(screen.getByLabelText('Tracking number, parcel 2'), 'D2');
    await userEvent.click(screen.getByRole('button', { name: 'Dispatch and e-mail the customer' }));
    expect(onSubmit).toHaveBeenLastCalledWith({
      lines: [{ orderLineId: 7, quantity: 1 }],
      parcels: [
        { carrier: 'Royal Mail', trackingNumber: 'A1' },
        { carrier: 'DPD', trackingNumber: 'D2' },
      ],
    });

    await userEvent.click(screen.getByLabelText('Royal Mail 2nd Class, untracked'));
    expect(screen.queryByLabelText('Tracking number, parcel 1')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Dispatch and e-mail the customer' }));
    expect(onSubmit).toHaveBeenLastCalledWith({
      lines: [{ orderLineId: 7, quantity: 1 }],
      untracked: { service: 'Royal Mail 2nd Class' },
    });
  });

  it('names what is wrong: more than is left, nothing chosen, a parcel without its tracking number', async () => {
    const onSubmit = vi.fn(async () => true);
    render(<DispatchForm order={order} onSubmit={onSubmit} />);
    await userEvent.clear(screen.getByLabelText(/Tabla 8/));
    await userEvent.type(screen.getByLabelText(/Tabla 8/), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Dispatch and e-mail the customer' }));
    expect(await screen.findByText('At most 2 are left to send')).toBeTruthy();
    expect(screen.getByText('Please enter the tracking number')).toBeTruthy();
    expect(screen.getByLabelText('Tracking number, parcel 1').getAttribute('aria-invalid')).toBe('true');

    for (const id of [7, 8]) {
      await userEvent.clear(screen.getByLabelText(new RegExp(`Tabla ${id}`)));
      await userEvent.type(screen.getByLabelText(new RegExp(`Tabla ${id}`)), '0');
    }
    await userEvent.click(screen.getByRole('button', { name: 'Dispatch and e-mail the customer' }));
    expect(await screen.findByText('Please choose at least one unit to send')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
