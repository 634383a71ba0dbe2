import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { countryInputSchema, type CountryInput, type DeliveryMethod } from '../../../../contract/admin/delivery.ts';
import { carrierServices } from '../../../../contract/admin/shipping.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { formatPence } from '../../lib/format.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';
import { addCountry, deliverySetupQueryOptions, removeCountry, reorderDeliveryMethods } from './api/delivery.ts';
import { MethodForm } from './method-form.tsx';
import { TableBox } from '../../ui/table-box.tsx';

/**
 * Delivery: per country served, its methods in the order checkout lists them, each with its rate
 * and the items totals it applies between; the countries themselves. Checkout shows a change next.
 */
export default function DeliveryPage() {
  const setup = useQuery(deliverySetupQueryOptions());
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const [editing, setEditing] = useState<number | 'new' | null>(null);

  async function run(task: () => Promise<void>) {
    setProblem(null);
    try {
      await task();
    } catch (error) {
      setProblem(error);
    }
  }

  const data = setup.data;
  return (
    <AdminPage
      title="Delivery"
      actions={
        <button type="button" className="button adm-small" onClick={() => setEditing('new')}>
          New delivery method
        </button>
      }
    >
      <ErrorAlert error={problem ?? setup.error} />
      {data && editing === 'new' && <MethodForm countries={data.countries} onDone={() => setEditing(null)} />}
      {data?.countries.map((country) => {
        const methods = data.methods.filter((method) => method.countryId === country.id);
        return (
          <section key={country.id} aria-labelledby={`country-${country.id}`}>
            <h2 id={`country-${country.id}`}>
              {country.name} ({country.isoCode})
            </h2>
            {methods.length === 0 ? (
              <p>No delivery methods: shoppers in {country.name} cannot check out.</p>
            ) : (
              <MethodTable
                methods={methods}
                onEdit={setEditing}
                onMove={(ids) => run(() => reorderDeliveryMethods(country.id, ids, queryClient))}
              />
            )}
            {methods.some((method) => method.id === editing) && (
              <MethodForm
                key={editing}
                countries={data.countries}
                method={methods.find((method) => method.id === editing)}
                onDone={() => setEditing(null)}
              />
            )}
            <button
              type="button"
              className="button button-secondary adm-small"
              onClick={() => void run(() => removeCountry(country.id, queryClient))}
            >
              Remove {country.name}
            </button>
          </section>
        );
      })}
      {data && <CountryForm />}
    </AdminPage>
  );
}

function bounds(method: DeliveryMethod): string {
  if (method.minItemsTotal === null && method.maxItemsTotal === null) return 'Any basket';
  if (method.maxItemsTotal === null) return `From ${formatPence(method.minItemsTotal ?? 0)}`;
  if (method.minItemsTotal === null) return `Under ${formatPence(method.maxItemsTotal)}`;
  return `From ${formatPence(method.minItemsTotal)}, under ${formatPence(method.maxItemsTotal)}`;
}

function MethodTable(props: {
  methods: DeliveryMethod[];
  onEdit: (id: number) => void;
  onMove: (ids: number[]) => Promise<void>;
}) {
  const ids = props.methods.map((method) => method.id);
  const moved = (from: number, to: number) => {
    const next = [...ids];
    const [id] = next.splice(from, 1);
    next.splice(to, 0, id as number);
    return next;
  };
  return (
    <TableBox label="Delivery methods, in the order checkout lists them">
      <table className="adm-table">
        <caption className="visually-hidden">Delivery methods, in the order checkout lists them</caption>
        <thead>
          <tr>
            <th scope="col">Method</th>
            <th scope="col" className="adm-num">
              Rate
            </th>
            <th scope="col">Items total</th>
            <th scope="col">Offered</th>
            <th scope="col">Kind</th>
            <th scope="col" className="adm-num">
              Transit days
            </th>
            <th scope="col">Labels sent by</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {props.methods.map((method, index) => (
            <tr key={method.id}>
              <td>{method.name}</td>
              <td className="adm-num">{formatPence(method.rate)}</td>
              <td>{bounds(method)}</td>
              <td>{method.active ? 'Yes' : 'No'}</td>
              <td>{method.kind === 'collection' ? 'Collection' : 'Delivery'}</td>
              <td className="adm-num">{method.transitDays}</td>
              <td>{method.labels ? carrierServices[method.labels.service].label : 'No labels'}</td>
              <td>
                <div className="adm-row">
                  <button
                    type="button"
                    className="button button-secondary adm-small"
                    onClick={() => props.onEdit(method.id)}
                  >
                    Edit<span className="visually-hidden"> {method.name}</span>
                  </button>
                  <button
                    type="button"
                    className="button button-secondary adm-small"
                    disabled={index === 0}
                    onClick={() => void props.onMove(moved(index, index - 1))}
                  >
                    Up<span className="visually-hidden"> {method.name}</span>
                  </button>
                  <button
                    type="button"
                    className="button button-secondary adm-small"
                    disabled={index === props.methods.length - 1}
                    onClick={() => void props.onMove(moved(index, index + 1))}
                  >
                    Down<span className="visually-hidden"> {method.name}</span>
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}

function CountryForm() {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const form = useForm<CountryInput>({
    resolver: zodResolver(countryInputSchema),
    defaultValues: { name: '', isoCode: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      await addCountry(values, queryClient);
      form.reset();
    } catch (error) {
      setProblem(error);
    }
  });
  return (
    <form noValidate aria-label="Add a country" className="adm-form" onSubmit={submit}>
      <h2>Add a country</h2>
      <ErrorAlert error={problem} />
      <Field
        id="country-name"
        label="Name"
        autoComplete="off"
        error={errors.name?.message}
        {...form.register('name')}
      />
      <Field
        id="country-iso"
        label="ISO code"
        hint="Two letters, such as IE."
        autoComplete="off"
        error={errors.isoCode?.message}
        {...form.register('isoCode')}
      />
      <button type="submit" className="button adm-small" disabled={isSubmitting}>
        Add country
      </button>
    </form>
  );
}
