import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { documentBatchQuerySchema, type DocumentBatchQuery } from '../../../../contract/admin/documents.ts';
import { ApiRequestError } from '../../../lib/api.ts';
import { contractResolver } from '../../lib/contract-resolver.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';

const fieldNames = ['from', 'to'] as const;
const isField = (name: string): name is (typeof fieldNames)[number] => (fieldNames as readonly string[]).includes(name);

/**
 * The period to download, its first and last days (both included). The contract's schema judges it
 * here as the server does; a refusal the server words anyway is shown beside the field it names.
 */
export function BatchForm(props: {
  defaultValues: DocumentBatchQuery;
  /** Answers the name of the file downloaded. */
  onDownload: (query: DocumentBatchQuery) => Promise<string>;
}) {
  const form = useForm<DocumentBatchQuery>({
    resolver: contractResolver<DocumentBatchQuery, typeof documentBatchQuerySchema>(
      documentBatchQuerySchema,
      (values) => values,
    ),
    defaultValues: props.defaultValues,
  });
  const { errors, isSubmitting } = form.formState;
  const [problem, setProblem] = useState<unknown>(null);
  const [done, setDone] = useState('');

  const submit = form.handleSubmit(async (values) => {
    try {
      setDone(`Downloaded ${await props.onDownload(values)}.`);
    } catch (error) {
      const named = error instanceof ApiRequestError ? error.fields.filter((f) => isField(f.field)) : [];
      for (const { field, message } of named) {
        if (isField(field)) form.setError(field, { message }, { shouldFocus: true });
      }
      if (named.length === 0) setProblem(error);
    }
  });

  return (
    <form
      noValidate
      aria-label="Download invoices and credit notes"
      className="adm-form"
      onSubmit={(event) => {
        // The last answer goes at once, before the period is judged: a refusal never stands beside it.
        setProblem(null);
        setDone('');
        void submit(event);
      }}
    >
      <ErrorAlert error={problem} />
      <Field id="batch-from" type="date" label="From" error={errors.from?.message} {...form.register('from')} />
      <Field
        id="batch-to"
        type="date"
        label="To"
        hint="Both days included, in UK time; at most 100 days."
        error={errors.to?.message}
        {...form.register('to')}
      />
      <button type="submit" className="button adm-small" disabled={isSubmitting}>
        Download PDF
      </button>
      <div role="status">{done && <p className="adm-done">{done}</p>}</div>
    </form>
  );
}
