import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { shopSettingsSchema, type ShopSettings, type ShopSettingsInput } from '../../../../contract/admin/settings.ts';
import { contractResolver } from '../../lib/contract-resolver.ts';
import { useLeaveGuard } from '../../lib/leave-guard.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';
import { saveSettings } from './api/settings.ts';

/**
 * The owner's settings (issue 37), one column of labelled fields. The contract's schema judges
 * them (shopSettingsSchema), its messages shown at the fields; numbers are typed as text.
 */
type SettingsForm = Omit<ShopSettings, 'mapLatitude' | 'mapLongitude' | 'lowStockThreshold'> & {
  mapLatitude: string;
  mapLongitude: string;
  lowStockThreshold: string;
};

/** Blank is no number (refused at its field), not 0. */
const numberOf = (typed: string) => (typed.trim() === '' ? Number.NaN : Number(typed));

function toPayload(form: SettingsForm): ShopSettingsInput {
  return {
    ...form,
    mapLatitude: numberOf(form.mapLatitude),
    mapLongitude: numberOf(form.mapLongitude),
    lowStockThreshold: numberOf(form.lowStockThreshold),
  };
}

const fields: Array<{
  name: keyof SettingsForm;
  label: string;
  hint?: string;
  type?: string;
  inputMode?: 'decimal' | 'numeric';
}> = [
  { name: 'name', label: 'Shop name', hint: 'On every page, e-mail and document.' },
  { name: 'phone', label: 'Phone', type: 'tel' },
  { name: 'email', label: 'E-mail address (and sender of the shop’s e-mails)', type: 'email' },
  { name: 'address', label: 'Postal address', hint: 'One line, its parts separated by commas.' },
  { name: 'companyNumber', label: 'Company number' },
  { name: 'vatNumber', label: 'VAT registration number', hint: 'GB and 9 or 12 digits; printed on new invoices.' },
  { name: 'ordersEmail', label: 'New-order alerts go to', type: 'email' },
  { name: 'facebookUrl', label: 'Facebook page', type: 'url' },
  { name: 'instagramUrl', label: 'Instagram page', type: 'url' },
  { name: 'mapLatitude', label: 'Map latitude', inputMode: 'decimal' },
  { name: 'mapLongitude', label: 'Map longitude', inputMode: 'decimal' },
  {
    name: 'lowStockThreshold',
    label: 'Low-stock threshold (units)',
    hint: 'The dashboard and stock page list sizes with this many units or fewer.',
    inputMode: 'numeric',
  },
];

export function SettingsForm(props: { settings: ShopSettings }) {
  const { settings } = props;
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const form = useForm<SettingsForm>({
    resolver: contractResolver<SettingsForm, typeof shopSettingsSchema>(shopSettingsSchema, toPayload),
    defaultValues: {
      ...settings,
      mapLatitude: String(settings.mapLatitude),
      mapLongitude: String(settings.mapLongitude),
      lowStockThreshold: String(settings.lowStockThreshold),
    },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  useLeaveGuard(isDirty);
  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    setSaved(false);
    try {
      await saveSettings(toPayload(values), queryClient);
      // Saved: nothing is left to lose by leaving.
      form.reset(values);
      setSaved(true);
    } catch (error) {
      setProblem(error);
    }
  });
  return (
    <form noValidate aria-label="Shop settings" className="adm-form" onSubmit={submit}>
      <ErrorAlert error={problem} />
      {fields.map((field) => (
        <Field
          key={field.name}
          id={`settings-${field.name}`}
          label={field.label}
          hint={field.hint}
          type={field.type ?? 'text'}
          autoComplete="off"
          {...(field.inputMode ? { inputMode: field.inputMode } : {})}
          error={errors[field.name]?.message}
          {...form.register(field.name)}
        />
      ))}
      <div className="adm-row">
        <button type="submit" className="button adm-small" disabled={isSubmitting}>
          Save settings
        </button>
      </div>
      {saved && <p role="status">Saved. Every page, e-mail and new document uses them within a few seconds.</p>}
    </form>
  );
}
