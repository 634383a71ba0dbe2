import { describe, expect, it } from 'vitest';
import { CarrierRefusedError } from '../label-carrier.ts';
import { createClickAndDropClient } from './client.ts';

/** The client's reading of Click & Drop's refusals: its own words, whatever shape the call gives them in. */
describe('the Click & Drop client', () => {
  const answering = (status: number, body: unknown) =>
    createClickAndDropClient({
      baseUrl: 'https://api.example/api/v1',
      apiKey: 'k',
      now: () => 0,
      sleep: async () => undefined,
      fetch: (async () =>
        new Response(JSON.stringify(body), {
          status,
          headers: { 'content-type': 'application/json' },
        })) as typeof fetch,
    });
  const refusal = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(CarrierRefusedError);
    return (error as CarrierRefusedError).message;
  };

  it("says the label call's and the lookup's refusals in Click & Drop's words, from their array bodies", async () => {
    const body = [
      { accountOrderNumber: 1001, code: 'NotFound', message: 'Order 1001 was not found' },
      { accountOrderNumber: 1002, code: 'NotFound', message: 'Order 1002 was not found' },
    ];
    expect(await refusal(answering(400, body).labels([1001, 1002]))).toBe(
      'Order 1001 was not found Order 1002 was not found',
    );
  });

  it('says a create call refused whole in its ErrorResponse words, its details after', async () => {
    const body = { code: 'BadRequest', message: 'The request is not valid', details: 'items[0].recipient' };
    const request = {
      reference: '100001',
      recipient: {
        fullName: 'Asha Kaur',
        addressLine1: '12 Market Street',
        addressLine2: '',
        addressLine3: '',
        city: 'West Bromwich',
        postcode: 'B70 7NJ',
        countryCode: 'GB',
        phoneNumber: '',
        emailAddress: 'asha@example.com',
      },
      orderDate: '2026-11-28T09:00:00.000Z',
      subtotal: 4500,
      shippingCostCharged: 995,
      total: 5495,
      serviceCode: 'TOLP24',
      packageFormat: 'parcel',
      weightGrams: 1200,
      dimensions: null,
      contents: [],
    };
    expect(await refusal(answering(400, body).create([request]))).toBe('The request is not valid (items[0].recipient)');
  });
});
