import { zodResolver } from '@hookform/resolvers/zod';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  dispatchSchema,
  knownCarriers,
  untrackedServices,
  type FulfilmentInput,
  type OrderDetail,
} from '../../../../contract/admin/orders.ts';
import { Field } from '../../ui/field.tsx';
import { unitCount } from './unit-count.ts';

const TRACKED = 'tracked';

/**
 * The form staff fill in: how many units of each line this fulfilment sends (everything still to
 * send by default), and how: in one or more tracked parcels (carrier and tracking number each) or
 * untracked by a Royal Mail service. It becomes the contract's fulfilment on submit.
 */
function dispatchFormSchema(lines: OrderDetail['lines']) {
  return z
    .object({
      lines: z.object(
        Object.fromEntries(
          lines.map((line) => [
            String(line.id),
            unitCount(
              line.toDispatch,
              `At most ${line.toDispatch} ${line.toDispatch === 1 ? 'is' : 'are'} left to send`,
            ),
          ]),
        ),
      ),
      how: z.enum([TRACKED, ...untrackedServices]),
      parcels: z.array(z.object({ carrier: z.string(), trackingNumber: z.string() })),
    })
    .superRefine((values, ctx) => {
      if (Object.values(values.lines).every((quantity) => Number(quantity) === 0))
        ctx.addIssue({ code: 'custom', path: ['chosen'], message: 'Please choose at least one unit to send' });
      if (values.how !== TRACKED) return;
      values.parcels.forEach((parcel, i) => {
        const checked = dispatchSchema.safeParse(parcel);
        if (!checked.success)
          for (const issue of checked.error.issues)
            ctx.addIssue({ code: 'custom', path: ['parcels', i, ...issue.path], message: issue.message });
      });
    });
}

interface DispatchFormValues {
  lines: Record<string, string | number>;
  how: typeof TRACKED | (typeof untrackedServices)[number];
  parcels: Array<{ carrier: string; trackingNumber: string }>;
}

const newParcel = () => ({ carrier: 'Royal Mail', trackingNumber: '' });

export function DispatchForm(props: {
  order: Pick<OrderDetail, 'lines'>;
  onSubmit: (fulfilment: FulfilmentInput) => Promise<unknown>;
}) {
  const toSend = props.order.lines.filter((line) => line.toDispatch > 0);
  const form = useForm<DispatchFormValues>({
    resolver: zodResolver(dispatchFormSchema(toSend)) as never,
    defaultValues: {
      lines: Object.fromEntries(toSend.map((line) => [String(line.id), String(line.toDispatch)])),
      how: TRACKED,
      parcels: [newParcel()],
    },
  });
  const parcels = useFieldArray({ control: form.control, name: 'parcels' });
  const { errors, isSubmitting } = form.formState;
  const how = useWatch({ control: form.control, name: 'how' });
  const chosenError = (errors as { chosen?: { message?: string } }).chosen?.message;

  const submit = form.handleSubmit(async (values) => {
    const lines = toSend
      .map((line) => ({ orderLineId: line.id, quantity: Number(values.lines[String(line.id)] ?? 0) }))
      .filter((line) => line.quantity > 0);
    await props.onSubmit(
      values.how === TRACKED
        ? {
            lines,
            parcels: values.parcels.map((parcel) => ({
              carrier: parcel.carrier.trim(),
              trackingNumber: parcel.trackingNumber.trim(),
            })),
          }
        : { lines, untracked: { service: values.how } },
    );
  });

  return (
    <form noValidate aria-label="Dispatch" className="adm-form" onSubmit={submit}>
      <fieldset aria-describedby={chosenError ? 'dispatch-lines-error' : undefined}>
        <legend>What to send</legend>
        {toSend.map((line) => (
          <Field
            key={line.id}
            id={`dispatch-line-${line.id}`}
            type="number"
            min={0}
            max={line.toDispatch}
            label={`${line.title} (${line.sizeName}): units to send`}
            hint={`${line.toDispatch} left to send${line.dispatched ? `, ${line.dispatched} sent already` : ''}`}
            error={errors.lines?.[String(line.id)]?.message}
            {...form.register(`lines.${line.id}`)}
          />
        ))}
        {chosenError && (
          <p id="dispatch-lines-error" className="field-error" role="alert">
            {chosenError}
          </p>
        )}
      </fieldset>
      <fieldset>
        <legend>How it is sent</legend>
        <div className="adm-choice">
          <input type="radio" id="dispatch-how-tracked" value={TRACKED} {...form.register('how')} />{' '}
          <label htmlFor="dispatch-how-tracked">Tracked parcels</label>
        </div>
        {untrackedServices.map((service, i) => (
          <div className="adm-choice" key={service}>
            <input type="radio" id={`dispatch-how-untracked-${i}`} value={service} {...form.register('how')} />{' '}
            <label htmlFor={`dispatch-how-untracked-${i}`}>{service}, untracked</label>
          </div>
        ))}
      </fieldset>
      {how === TRACKED && (
        <>
          {parcels.fields.map((parcel, i) => (
            <fieldset key={parcel.id}>
              <legend>Parcel {i + 1}</legend>
              <Field
                id={`dispatch-carrier-${i}`}
                label={`Carrier, parcel ${i + 1}`}
                list="known-carriers"
                autoComplete="off"
                hint={
                  i === 0
                    ? "Royal Mail, Parcelforce, DPD, Evri, DHL and UPS get a tracking link in the customer's e-mail."
                    : undefined
                }
                error={errors.parcels?.[i]?.carrier?.message}
                {...form.register(`parcels.${i}.carrier`)}
              />
              <Field
                id={`dispatch-tracking-${i}`}
                label={`Tracking number, parcel ${i + 1}`}
                autoComplete="off"
                error={errors.parcels?.[i]?.trackingNumber?.message}
                {...form.register(`parcels.${i}.trackingNumber`)}
              />
              {parcels.fields.length > 1 && (
                <button type="button" className="button adm-small" onClick={() => parcels.remove(i)}>
                  Remove parcel {i + 1}
                </button>
              )}
            </fieldset>
          ))}
          <datalist id="known-carriers">
            {knownCarriers.map((carrier) => (
              <option key={carrier} value={carrier} />
            ))}
          </datalist>
          {parcels.fields.length < 20 && (
            <p>
              <button type="button" className="button adm-small" onClick={() => parcels.append(newParcel())}>
                Add a parcel
              </button>
            </p>
          )}
        </>
      )}
      <button type="submit" className="button adm-small" disabled={isSubmitting}>
        Dispatch and e-mail the customer
      </button>
    </form>
  );
}
