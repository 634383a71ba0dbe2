import { describe, expect, it } from 'vitest';
import { accountSchema } from './accounts.ts';
import { addressSchema, guestSchema } from './basket.ts';
import { contactRequestSchema } from './contact.ts';
const isPhoneNumber = (t: string) => guestSchema.shape.contactNumber.safeParse(t).success;

const guest = {
  titleId: 1,
  firstname: 'Asha',
  lastname: 'Kaur',
  email: 'asha@example.com',
  contactNumber: '0121 496 0000',
};
const address = { line1: '12 Market Street', postcode: 'B70 7NJ', townCity: 'West Bromwich', countryId: 1 };

/** The message each refused field is answered with, by its path. */
function refusals(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
}

describe('field rules shared by the forms and the server (issue 32)', () => {
  it.each([
    '0121 496 0000',
    '01214960000',
    '(0121) 496 0000',
    '0121-496-0000',
    '0121.496.0000',
    '+44 (0)121 496 0000',
    '+44 121 496 0000',
    '+44(0)1214960000',
    '0044 121 496 0000',
    '07700 900123',
    '016977 2345',
    '+1 212 555 0100',
  ])('takes the phone number %j, kept as typed', (typed) => {
    expect(isPhoneNumber(typed)).toBe(true);
    expect(guestSchema.parse({ ...guest, contactNumber: ` ${typed} ` }).contactNumber).toBe(typed);
  });

  it.each([
    'call me',
    '12345',
    '0121 496',
    '0121 496 0000 ext 2',
    '+44',
    '+44 (0)',
    '00000000000',
    '1214960000',
    '++44 121 496 0000',
  ])('refuses the phone number %j, naming the field', (typed) => {
    expect(isPhoneNumber(typed)).toBe(false);
    expect(refusals(guestSchema.safeParse({ ...guest, contactNumber: typed }))).toEqual({
      contactNumber: 'Please provide your Contact Number',
    });
    expect(
      refusals(
        accountSchema.safeParse({
          ...guest,
          contactNumber: typed,
          billingAddress: { ...address, line2: 'x' },
          deliveryAddress: { ...address, line2: 'x' },
        }),
      ),
    ).toEqual({
      contactNumber: 'Please provide your Contact Number',
    });
  });

  it('names the field a text is too long for', () => {
    expect(refusals(guestSchema.safeParse({ ...guest, firstname: 'A'.repeat(51), lastname: 'B'.repeat(51) }))).toEqual({
      firstname: 'First name: at most 50 characters',
      lastname: 'Last name: at most 50 characters',
    });
    expect(
      refusals(
        addressSchema.safeParse({
          ...address,
          line1: 'x'.repeat(101),
          line2: 'x'.repeat(101),
          line3: 'x'.repeat(101),
          townCity: 'x'.repeat(61),
        }),
      ),
    ).toEqual({
      line1: 'Address line 1: at most 100 characters',
      line2: 'Address line 2: at most 100 characters',
      line3: 'Address line 3: at most 100 characters',
      townCity: 'Town / city: at most 60 characters',
    });
    const account = {
      ...guest,
      firstname: 'A'.repeat(51),
      billingAddress: { ...address, line2: 'x'.repeat(101) },
      deliveryAddress: { ...address, line2: 'x' },
    };
    expect(refusals(accountSchema.safeParse(account))).toEqual({
      firstname: 'First name: at most 50 characters',
      'billingAddress.line2': 'Address line 2: at most 100 characters',
    });
    expect(
      refusals(
        contactRequestSchema.safeParse({
          email: 'a@example.com',
          name: 'N'.repeat(101),
          phone: '0121 496 0000',
          message: 'Hi',
        }),
      ),
    ).toEqual({ name: 'Name: at most 100 characters' });
  });
});
