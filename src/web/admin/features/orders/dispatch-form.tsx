import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { dispatchSchema, knownCarriers, type DispatchInput } from '../../../../contract/admin/orders.ts';
import { Field } from '../../ui/field.tsx';

/** Dispatch: the carrier (the known ones get a tracking link in the customer's e-mail) and tracking number. */
export function DispatchForm(props: { onSubmit: (dispatch: DispatchInput) => Promise<unknown> }) {
  const form = useForm<DispatchInput>({
    resolver: zodResolver(dispatchSchema),
    defaultValues: { carrier: 'Royal Mail', trackingNumber: '' },
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form noValidate aria-label="Dispatch" className="adm-form" onSubmit={form.handleSubmit(props.onSubmit)}>
      <Field
        id="dispatch-carrier"
        label="Carrier"
        list="known-carriers"
        autoComplete="off"
        hint="Royal Mail, Parcelforce, DPD, Evri, DHL and UPS get a tracking link in the customer's e-mail."
        error={errors.carrier?.message}
        {...form.register('carrier')}
      />
      <datalist id="known-carriers">
        {knownCarriers.map((carrier) => (
          <option key={carrier} value={carrier} />
        ))}
      </datalist>
      <Field
        id="dispatch-tracking"
        label="Tracking number"
        autoComplete="off"
        error={errors.trackingNumber?.message}
        {...form.register('trackingNumber')}
      />
      <button type="submit" className="button adm-small" disabled={isSubmitting}>
        Dispatch and e-mail the customer
      </button>
    </form>
  );
}
