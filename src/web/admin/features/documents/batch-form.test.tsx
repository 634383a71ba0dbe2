// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../../lib/api.ts';
import { BatchForm } from './batch-form.tsx';

afterEach(cleanup);

const period = { from: '2026-11-01', to: '2026-11-28' };

describe('the accountant’s batch form', () => {
  it('downloads the period shown, and says which file arrived', async () => {
    const onDownload = vi.fn(async () => 'documents-2026-11-01-2026-11-28.pdf');
    render(<BatchForm defaultValues={period} onDownload={onDownload} />);
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-11-01');
    expect((screen.getByLabelText('To') as HTMLInputElement).value).toBe('2026-11-28');
    await userEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(onDownload).toHaveBeenCalledWith(period);
    expect((await screen.findByRole('status')).textContent).toBe('Downloaded documents-2026-11-01-2026-11-28.pdf.');

    // A period refused afterwards leaves no word of the last download beside its message.
    await userEvent.clear(screen.getByLabelText('From'));
    await userEvent.type(screen.getByLabelText('From'), '2026-12-01');
    await userEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(await screen.findByText('The last day cannot be before the first.')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('');
    expect(onDownload).toHaveBeenCalledTimes(1);
  });

  it('refuses a period that ends before it starts, at the To field, without asking the server', async () => {
    const onDownload = vi.fn(async () => 'never.pdf');
    render(<BatchForm defaultValues={{ from: '2026-11-10', to: '2026-11-01' }} onDownload={onDownload} />);
    await userEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(await screen.findByText('The last day cannot be before the first.')).toBeTruthy();
    expect(screen.getByLabelText('To').getAttribute('aria-invalid')).toBe('true');
    expect(onDownload).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal beside the field it names, and moves focus there', async () => {
    const refusal = new ApiRequestError(400, 'GET /api/admin/documents answered 400', 'VALIDATION', 'Invalid to', [
      { field: 'to', message: 'A period can be at most 100 days long: ask for a longer one in parts.' },
    ]);
    render(<BatchForm defaultValues={period} onDownload={() => Promise.reject(refusal)} />);
    await userEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    const message = await screen.findByText('A period can be at most 100 days long: ask for a longer one in parts.');
    const to = screen.getByLabelText('To');
    expect(to.getAttribute('aria-describedby')).toContain(message.id);
    expect(document.activeElement).toBe(to);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('announces any other failure', async () => {
    render(
      <BatchForm
        defaultValues={period}
        onDownload={() => Promise.reject(new ApiRequestError(500, 'boom', 'INTERNAL', 'Something broke on our side.'))}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Something broke on our side.');
  });
});
