import { zodResolver } from '@hookform/resolvers/zod';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { packagingInputSchema, type Packaging, type PackagingInput } from '../../../../contract/admin/shipping.ts';
import { requestJson } from '../../../lib/api.ts';
import { useMayCall } from '../../lib/access.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';
import { TableBox } from '../../ui/table-box.tsx';

/**
 * Packaging presets (docs/back-office.md#shipping-labels): the boxes and crates sizes are sent in,
 * with their inside measures and what they weigh empty. A size sent in one takes its measures on
 * its label, and the box's weight is added to the goods'.
 */
const packagingsKey = ['admin', 'catalogue', 'packagings'] as const;
const packagingsQuery = () =>
  queryOptions({
    queryKey: packagingsKey,
    queryFn: ({ signal }) => requestJson<Packaging[]>('/api/admin/packagings', { signal }),
  });

async function savePackaging(id: number | undefined, input: PackagingInput, queryClient: QueryClient) {
  await requestJson<Packaging>(id ? `/api/admin/packagings/${id}` : '/api/admin/packagings', {
    method: id ? 'PUT' : 'POST',
    body: JSON.stringify(input),
  });
  await queryClient.invalidateQueries({ queryKey: packagingsKey });
}

async function deletePackaging(id: number, queryClient: QueryClient) {
  await requestJson<void>(`/api/admin/packagings/${id}`, { method: 'DELETE' });
  await queryClient.invalidateQueries({ queryKey: packagingsKey });
}

export default function PackagingsPage() {
  const list = useQuery(packagingsQuery());
  const queryClient = useQueryClient();
  const mayCall = useMayCall();
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const editable = mayCall('POST /packagings');
  return (
    <AdminPage
      title="Packaging"
      actions={
        editable && (
          <button type="button" className="button adm-small" onClick={() => setEditing('new')}>
            New packaging
          </button>
        )
      }
    >
      <ErrorAlert error={problem ?? list.error} />
      {editing === 'new' && <PackagingForm onDone={() => setEditing(null)} />}
      {list.data && list.data.length === 0 && <p>No packaging yet: each size is sent in its own box.</p>}
      {list.data && list.data.length > 0 && (
        <TableBox label="Packaging presets">
          <table className="adm-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Length × width × height</th>
                <th scope="col">Empty weight</th>
                <th scope="col">Sizes sent in it</th>
                {editable && <th scope="col">Change</th>}
              </tr>
            </thead>
            <tbody>
              {list.data.map((packaging) =>
                editing === packaging.id ? (
                  <tr key={packaging.id}>
                    <td colSpan={editable ? 5 : 4}>
                      <PackagingForm packaging={packaging} onDone={() => setEditing(null)} />
                    </td>
                  </tr>
                ) : (
                  <tr key={packaging.id}>
                    <td>{packaging.name}</td>
                    <td>
                      {packaging.lengthMm} × {packaging.widthMm} × {packaging.heightMm} mm
                    </td>
                    <td className="adm-num">{packaging.weightGrams} g</td>
                    <td className="adm-num">{packaging.sizes}</td>
                    {editable && (
                      <td>
                        <div className="adm-row">
                          <button
                            type="button"
                            className="button button-secondary adm-small"
                            onClick={() => setEditing(packaging.id)}
                          >
                            Edit<span className="visually-hidden"> {packaging.name}</span>
                          </button>
                          <button
                            type="button"
                            className="button button-secondary adm-small"
                            onClick={async () => {
                              setProblem(null);
                              try {
                                await deletePackaging(packaging.id, queryClient);
                              } catch (error) {
                                setProblem(error);
                              }
                            }}
                          >
                            Delete<span className="visually-hidden"> {packaging.name}</span>
                          </button>
                        </div>
                      </td>
                    )}
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </TableBox>
      )}
    </AdminPage>
  );
}

/** Whole numbers as typed; the contract says what they may be. */
const formSchema = z.object({
  name: z.string(),
  lengthMm: z.string(),
  widthMm: z.string(),
  heightMm: z.string(),
  weightGrams: z.string(),
});
type PackagingForm = z.infer<typeof formSchema>;
const toInput = (form: PackagingForm): PackagingInput => ({
  name: form.name,
  lengthMm: Number(form.lengthMm.trim() || Number.NaN),
  widthMm: Number(form.widthMm.trim() || Number.NaN),
  heightMm: Number(form.heightMm.trim() || Number.NaN),
  weightGrams: Number(form.weightGrams.trim() || Number.NaN),
});
const inputSchema = formSchema.transform(toInput).pipe(packagingInputSchema);

function PackagingForm(props: { packaging?: Packaging; onDone: () => void }) {
  const { packaging } = props;
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const form = useForm<PackagingForm, unknown, PackagingInput>({
    resolver: zodResolver(inputSchema),
    defaultValues: {
      name: packaging?.name ?? '',
      lengthMm: packaging ? String(packaging.lengthMm) : '',
      widthMm: packaging ? String(packaging.widthMm) : '',
      heightMm: packaging ? String(packaging.heightMm) : '',
      weightGrams: packaging ? String(packaging.weightGrams) : '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const label = packaging ? `Edit ${packaging.name}` : 'New packaging';
  const id = `packaging-${packaging?.id ?? 'new'}`;
  return (
    <form
      noValidate
      aria-label={label}
      className="adm-form"
      onSubmit={form.handleSubmit(async (input) => {
        setProblem(null);
        try {
          await savePackaging(packaging?.id, input, queryClient);
          props.onDone();
        } catch (error) {
          setProblem(error);
        }
      })}
    >
      <h2>{label}</h2>
      <ErrorAlert error={problem} />
      <Field
        id={`${id}-name`}
        label="Name"
        autoComplete="off"
        error={errors.name?.message}
        {...form.register('name')}
      />
      {(
        [
          ['lengthMm', 'Length (mm)'],
          ['widthMm', 'Width (mm)'],
          ['heightMm', 'Height (mm)'],
          ['weightGrams', 'Empty weight (g)'],
        ] as const
      ).map(([field, words]) => (
        <Field
          key={field}
          id={`${id}-${field}`}
          label={words}
          inputMode="numeric"
          autoComplete="off"
          error={errors[field]?.message}
          {...form.register(field)}
        />
      ))}
      <div className="adm-row">
        <button type="submit" className="button adm-small" disabled={isSubmitting}>
          Save packaging
        </button>
        <button type="button" className="button button-secondary adm-small" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
