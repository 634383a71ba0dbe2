import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  deliveryMethodInputSchema,
  type DeliveryMethod,
  type DeliveryMethodInput,
  type DeliverySetup,
} from '../../../../contract/admin/delivery.ts';
import {
  carrierServiceKeys,
  carrierServices,
  packageFormatKeys,
  packageFormats,
} from '../../../../contract/admin/shipping.ts';
import type { DeliveryKind } from '../../../../contract/order-status.ts';
import { contractResolver, penceOrNull } from '../../lib/contract-resolver.ts';
import { penceToDecimal, poundsToPence } from '../../lib/format.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field, SelectField } from '../../ui/field.tsx';
import { saveDeliveryMethod } from './api/delivery.ts';

/**
 * A delivery method's form, new or edited: its country, name, rate, the items totals it applies
 * between, its kind, its transit days and whether checkout offers it. The contract's schema judges
 * it (deliveryMethodInputSchema), its messages shown at the fields.
 */

/** A new method's transit days: migration 0032's default, which every method had before. */
const DEFAULT_TRANSIT_DAYS = 3;

/** The form as typed: amounts in pounds; a blank bound is open. */
interface MethodForm {
  countryId: string;
  name: string;
  rate: string;
  minItemsTotal: string;
  maxItemsTotal: string;
  active: boolean;
  kind: DeliveryKind;
  /** Whole days, as typed. */
  transitDays: string;
  /** A carrier service key, or '' for no labels. */
  service: string;
  packageFormat: string;
}

function toPayload(form: MethodForm): DeliveryMethodInput {
  return {
    countryId: Number(form.countryId),
    name: form.name,
    rate: poundsToPence(form.rate) as number,
    minItemsTotal: penceOrNull(poundsToPence(form.minItemsTotal), form.minItemsTotal) as number | null,
    maxItemsTotal: penceOrNull(poundsToPence(form.maxItemsTotal), form.maxItemsTotal) as number | null,
    active: form.active,
    kind: form.kind,
    // Blank is not 0 days: it is refused, as every method has its transit days.
    transitDays: form.transitDays.trim() === '' ? Number.NaN : Number(form.transitDays),
    labels:
      form.service === ''
        ? null
        : ({ service: form.service, packageFormat: form.packageFormat } as NonNullable<DeliveryMethodInput['labels']>),
  };
}

const pounds = (pence: number | null) => (pence === null ? '' : penceToDecimal(pence));

export function MethodForm(props: {
  countries: DeliverySetup['countries'];
  method?: DeliveryMethod | undefined;
  onDone: () => void;
}) {
  const { method } = props;
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const form = useForm<MethodForm>({
    resolver: contractResolver<MethodForm, typeof deliveryMethodInputSchema>(deliveryMethodInputSchema, toPayload, {
      fieldOf: (path) => path.replace(/^labels\./, ''),
    }),
    defaultValues: {
      countryId: String(method?.countryId ?? props.countries[0]?.id ?? ''),
      name: method?.name ?? '',
      rate: method ? pounds(method.rate) : '',
      minItemsTotal: pounds(method?.minItemsTotal ?? null),
      maxItemsTotal: pounds(method?.maxItemsTotal ?? null),
      active: method?.active ?? true,
      kind: method?.kind ?? 'delivery',
      transitDays: String(method?.transitDays ?? DEFAULT_TRANSIT_DAYS),
      service: method?.labels?.service ?? '',
      packageFormat: method?.labels?.packageFormat ?? 'parcel',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      await saveDeliveryMethod(method?.id, toPayload(values), queryClient);
      props.onDone();
    } catch (error) {
      setProblem(error);
    }
  });
  const label = method ? `Edit ${method.name}` : 'New delivery method';
  const id = `method-${method?.id ?? 'new'}`;
  return (
    <form noValidate aria-label={label} className="adm-form" onSubmit={submit}>
      <h3>{label}</h3>
      <ErrorAlert error={problem} />
      <SelectField
        id={`${id}-country`}
        label="Country"
        error={errors.countryId?.message}
        {...form.register('countryId')}
      >
        {props.countries.map((country) => (
          <option key={country.id} value={country.id}>
            {country.name}
          </option>
        ))}
      </SelectField>
      <Field
        id={`${id}-name`}
        label="Name"
        autoComplete="off"
        error={errors.name?.message}
        {...form.register('name')}
      />
      <Field
        id={`${id}-rate`}
        label="Rate (£)"
        inputMode="decimal"
        autoComplete="off"
        error={errors.rate?.message}
        {...form.register('rate')}
      />
      <Field
        id={`${id}-min`}
        label="From an items total of (£)"
        hint="Blank for any."
        inputMode="decimal"
        autoComplete="off"
        error={errors.minItemsTotal?.message}
        {...form.register('minItemsTotal')}
      />
      <Field
        id={`${id}-max`}
        label="Under an items total of (£)"
        hint="Blank for no upper bound."
        inputMode="decimal"
        autoComplete="off"
        error={errors.maxItemsTotal?.message}
        {...form.register('maxItemsTotal')}
      />
      <SelectField
        id={`${id}-kind`}
        label="Kind"
        hint="A collection order is made ready for collection, not dispatched."
        error={errors.kind?.message}
        {...form.register('kind')}
      >
        <option value="delivery">Delivery: sent to the customer</option>
        <option value="collection">Collection: collected from the shop</option>
      </SelectField>
      <Field
        id={`${id}-transit-days`}
        label="Transit days"
        hint="Days a parcel takes to arrive, 0 to 30. When its delivery is not recorded, a return's 14 days start this long after dispatch."
        inputMode="numeric"
        autoComplete="off"
        error={errors.transitDays?.message}
        {...form.register('transitDays')}
      />
      <SelectField
        id={`${id}-service`}
        label="Labels sent by"
        hint="The Royal Mail or Parcelforce service its labels are bought for. None: its orders are dispatched by hand."
        error={errors.service?.message}
        {...form.register('service')}
      >
        <option value="">None</option>
        {carrierServiceKeys.map((key) => (
          <option key={key} value={key}>
            {carrierServices[key].label}
          </option>
        ))}
      </SelectField>
      <SelectField
        id={`${id}-package-format`}
        label="Package format"
        hint="Click & Drop's format for its parcels: a harmonium is a parcel, a set of strings a large letter."
        error={errors.packageFormat?.message}
        {...form.register('packageFormat')}
      >
        {packageFormatKeys.map((key) => (
          <option key={key} value={key}>
            {packageFormats[key]}
          </option>
        ))}
      </SelectField>
      <div className="adm-field adm-check">
        <input id={`${id}-active`} type="checkbox" {...form.register('active')} />
        <label htmlFor={`${id}-active`}>Offered at checkout</label>
      </div>
      <div className="adm-row">
        <button type="submit" className="button adm-small" disabled={isSubmitting}>
          Save delivery method
        </button>
        <button type="button" className="button button-secondary adm-small" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
