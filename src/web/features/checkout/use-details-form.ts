import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { addressSchema, guestSchema } from '../../../contract/basket.ts';
import { useAccount } from '../../lib/account.ts';
import { useCountries } from '../../lib/catalog-api.ts';
import { basketStore, type BasketState } from '../../lib/basket/basket-store.ts';

const detailsSchema = z.object({ guest: guestSchema, billingAddress: addressSchema });
export type Details = z.input<typeof detailsSchema>;

/**
 * Checkout step 1's form, filled from the basket, or from a registered customer's account when the
 * basket has no name yet; `savedBilling` is the customer's saved billing address, when usable.
 */
export function useDetailsForm(basket: BasketState) {
  const form = useForm<Details>({
    resolver: zodResolver(detailsSchema),
    mode: 'onTouched',
    defaultValues: {
      guest: {
        titleId: basket.guest?.titleId ?? undefined,
        firstname: basket.guest?.firstname ?? '',
        lastname: basket.guest?.lastname ?? '',
        email: basket.guest?.email ?? '',
        contactNumber: basket.guest?.contactNumber ?? '',
      },
      billingAddress: {
        line1: basket.billingAddress?.line1 ?? '',
        line2: basket.billingAddress?.line2 ?? '',
        line3: basket.billingAddress?.line3 ?? '',
        postcode: basket.billingAddress?.postcode ?? '',
        townCity: basket.billingAddress?.townCity ?? '',
        // docs/rules.md#checkout: an existing billing address pre-fills the country.
        countryId: basket.billingAddress?.countryId ?? undefined,
      },
    },
  });
  // Kept in the basket as it is typed, so a reload keeps it (issue 32), as Delivery and Review keep theirs.
  const countries = useCountries();
  useEffect(
    () =>
      form.subscribe({
        formState: { values: true },
        callback: ({ values }) => {
          const countryId = values.billingAddress.countryId;
          basketStore.keepDetails({
            guest: values.guest,
            billingAddress: {
              ...values.billingAddress,
              countryName: countries.data?.find((c) => c.id === countryId)?.name ?? '',
            },
          });
        },
      }),
    [form, countries.data],
  );
  const account = useAccount();
  const saved = account.data;
  const savedBilling = saved?.billingAddress.line1 && saved.billingAddress.countryId ? saved.billingAddress : undefined;

  // docs/rules.md#checkout: a registered customer's details are filled in, their saved billing address used.
  useEffect(() => {
    if (!saved || basketStore.getSnapshot().guest?.firstname) return;
    form.reset({
      guest: {
        titleId: saved.titleId,
        firstname: saved.firstname,
        lastname: saved.lastname,
        email: saved.email,
        contactNumber: saved.contactNumber,
      },
      billingAddress: {
        line1: saved.billingAddress.line1 ?? '',
        line2: saved.billingAddress.line2 ?? '',
        line3: saved.billingAddress.line3 ?? '',
        postcode: saved.billingAddress.postcode ?? '',
        townCity: saved.billingAddress.townCity ?? '',
        countryId: saved.billingAddress.countryId ?? undefined,
      },
    });
  }, [saved, form]);

  return { form, savedBilling };
}
