import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { addressSchema } from '../../../contract/basket.ts';
import { useAccount } from '../../lib/account.ts';
import { basketStore, isCompleteAddress, type BasketState } from '../../lib/basket/basket-store.ts';
import { useCountries } from '../../lib/catalog-api.ts';

const deliverySchema = z.object({ deliveryAddress: addressSchema });
type DeliveryForm = z.input<typeof deliverySchema>;

const blank = { line1: '', line2: '', line3: '', postcode: '', townCity: '', countryId: undefined };

/** Changing the country or the option re-prices the basket (docs/rules.md#checkout). */
export function saveAndVerify(changes: Parameters<typeof basketStore.update>[0]) {
  basketStore.update(changes);
  void basketStore.verify().catch(() => undefined);
}

/**
 * Checkout step 2's delivery address: a customer's saved one, or one typed (or copied from the
 * billing address) and confirmed, saved in the basket and priced as it changes.
 */
export function useDeliveryAddress(basket: BasketState) {
  const countries = useCountries();
  const saved = basket.deliveryAddress;
  const [confirmed, setConfirmed] = useState(isCompleteAddress(saved));
  const [sameAsBilling, setSameAsBilling] = useState(false);
  const form = useForm<DeliveryForm>({
    resolver: zodResolver(deliverySchema),
    mode: 'onTouched',
    defaultValues: {
      deliveryAddress: isCompleteAddress(saved)
        ? { ...blank, ...saved, countryId: saved?.countryId ?? undefined }
        : blank,
    },
  });
  const { errors } = form.formState;
  const countryName = (id: number | null | undefined) => countries.data?.find((c) => c.id === id)?.name ?? '';
  const account = useAccount();
  const savedDelivery = account.data?.deliveryAddress;
  const hasSaved = Boolean(
    savedDelivery?.line1 && savedDelivery.postcode && savedDelivery.townCity && savedDelivery.countryId,
  );
  const [useOther, setUseOther] = useState(false);

  function copyBilling(checked: boolean) {
    setSameAsBilling(checked);
    const address = checked
      ? { ...blank, ...basket.billingAddress, countryId: basket.billingAddress?.countryId ?? undefined }
      : blank;
    form.reset({ deliveryAddress: address });
    // A reset to no country leaves the select showing the old one: the empty
    // option's value clears it, and the schema still asks for a country.
    if (!checked) form.setValue('deliveryAddress.countryId', '' as unknown as number);
    if (address.countryId)
      saveAndVerify({ deliveryAddress: { ...address, countryName: countryName(address.countryId) } });
  }

  async function confirmAddress(): Promise<boolean> {
    // An address that is not complete: to the first field that says why.
    const valid = await form.trigger('deliveryAddress', { shouldFocus: true });
    const address = form.getValues('deliveryAddress');
    if (!valid || !address.countryId) return false;
    saveAndVerify({ deliveryAddress: { ...address, countryName: countryName(address.countryId) } });
    setConfirmed(true);
    return true;
  }

  function chooseSavedAddress() {
    if (!savedDelivery) return;
    saveAndVerify({ deliveryAddress: { ...savedDelivery, countryName: countryName(savedDelivery.countryId) } });
    setConfirmed(true);
  }

  return {
    form,
    errors,
    countries: countries.data ?? [],
    confirmed,
    edit: () => setConfirmed(false),
    sameAsBilling,
    copyBilling,
    confirmAddress,
    changeCountry: (countryId: number) =>
      saveAndVerify({
        deliveryAddress: { ...form.getValues('deliveryAddress'), countryId, countryName: countryName(countryId) },
      }),
    /** The customer's saved delivery address, when it is complete. */
    savedDelivery: hasSaved ? savedDelivery : undefined,
    useOther,
    chooseOther(checked: boolean) {
      setUseOther(checked);
      if (checked) setConfirmed(false);
    },
    chooseSavedAddress,
    /** On Continue: answers whether the address is settled, confirming what needs it. */
    async settle(): Promise<boolean> {
      // A registered customer who keeps their saved delivery address has nothing more to fill in.
      const savedChosen = hasSaved && !useOther;
      if (savedChosen && !confirmed) chooseSavedAddress();
      return savedChosen || confirmed || (await confirmAddress());
    },
  };
}

export type DeliveryAddress = ReturnType<typeof useDeliveryAddress>;
