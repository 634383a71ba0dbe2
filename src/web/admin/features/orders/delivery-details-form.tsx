import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  deliveryDetailsSchema,
  type DeliveryDetailsInput,
  type OrderDetail,
} from '../../../../contract/admin/orders.ts';
import { useLeaveGuard } from '../../lib/leave-guard.tsx';
import { Field } from '../../ui/field.tsx';

/**
 * New delivery details before dispatch (the customer rang: a new address, a new number), checked
 * as checkout checks them. The country stays the order's, whose delivery was priced for it.
 */
export function DeliveryDetailsForm(props: {
  order: OrderDetail;
  onSubmit: (details: DeliveryDetailsInput) => Promise<boolean>;
}) {
  const { order } = props;
  const [open, setOpen] = useState(false);
  const form = useForm<DeliveryDetailsInput>({
    resolver: zodResolver(deliveryDetailsSchema),
    defaultValues: {
      deliveryAddress: {
        line1: order.deliveryAddress.line1,
        line2: order.deliveryAddress.line2,
        line3: order.deliveryAddress.line3,
        townCity: order.deliveryAddress.townCity,
        postcode: order.deliveryAddress.postcode,
      },
      contactNumber: order.contactNumber,
      email: order.email,
    },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  useLeaveGuard(open && isDirty);
  if (!open)
    return (
      <button type="button" className="button button-secondary adm-small" onClick={() => setOpen(true)}>
        Change delivery details…
      </button>
    );
  const address = errors.deliveryAddress;
  return (
    <form
      noValidate
      aria-label="Change delivery details"
      className="adm-form"
      onSubmit={form.handleSubmit(async (details) => {
        if (await props.onSubmit(details)) setOpen(false);
      })}
    >
      <Field
        id="delivery-line1"
        label="Address line 1"
        autoComplete="off"
        autoFocus
        error={address?.line1?.message}
        {...form.register('deliveryAddress.line1')}
      />
      <Field
        id="delivery-line2"
        label="Address line 2 (optional)"
        autoComplete="off"
        error={address?.line2?.message}
        {...form.register('deliveryAddress.line2')}
      />
      <Field
        id="delivery-line3"
        label="Address line 3 (optional)"
        autoComplete="off"
        error={address?.line3?.message}
        {...form.register('deliveryAddress.line3')}
      />
      <Field
        id="delivery-town"
        label="Town or city"
        autoComplete="off"
        error={address?.townCity?.message}
        {...form.register('deliveryAddress.townCity')}
      />
      <Field
        id="delivery-postcode"
        label="Postcode"
        autoComplete="off"
        hint={`In ${order.deliveryAddress.country}: the delivery was priced for it.`}
        error={address?.postcode?.message}
        {...form.register('deliveryAddress.postcode')}
      />
      <Field
        id="delivery-phone"
        label="Contact number"
        type="tel"
        autoComplete="off"
        error={errors.contactNumber?.message}
        {...form.register('contactNumber')}
      />
      <Field
        id="delivery-email"
        label="E-mail"
        type="email"
        autoComplete="off"
        error={errors.email?.message}
        {...form.register('email')}
      />
      <div className="adm-row">
        <button type="submit" className="button adm-small" disabled={isSubmitting}>
          Save delivery details
        </button>
        <button type="button" className="button button-secondary adm-small" onClick={() => setOpen(false)}>
          Keep them as they are
        </button>
      </div>
    </form>
  );
}
