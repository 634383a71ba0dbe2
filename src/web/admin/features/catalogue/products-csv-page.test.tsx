// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../../lib/api.ts';
import { Refusal } from './products-csv-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the products CSV page', () => {
  it('says a refusal of the whole file once, not again as a list of one', () => {
    const message =
      'This file uses semicolons between its columns; save it as CSV, comma-separated, and send it again.';
    render(<Refusal error={new ApiRequestError(400, message, 'BAD_REQUEST', message, [{ field: 'file', message }])} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe(message);
  });
});
