import { useQuery, useQueryClient } from '@tanstack/react-query';
import { plural } from '../../../../contract/words.ts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  MAX_IMPORT_BYTES,
  productCsvHeader,
  type ProductImportSummary,
} from '../../../../contract/admin/products-csv.ts';
import { ApiRequestError } from '../../../lib/api.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { problemText } from '../../lib/problem.ts';
import { useMayCall } from '../../lib/access.ts';
import { staffMeQueryOptions } from '../../lib/staff-session.ts';
import { DataTable, dataColumns } from '../../ui/data-table.tsx';
import { applyProductImport, previewProductImport, productsCsvHref } from './api/products-csv.ts';

/**
 * Products as CSV (docs/back-office.md#csv-import-and-export): download them all, or (owners) upload
 * a file, see what it would change and every error by row and column, then apply it. Apply is
 * offered only for a file without errors, and sends the same file again: the server checks it
 * once more and writes all of it or none.
 */
export default function ProductsCsvPage() {
  const me = useQuery(staffMeQueryOptions());
  const may = useMayCall();
  return (
    <AdminPage
      title="Products as CSV"
      actions={
        <Link className="button button-secondary adm-small" to="/products">
          Back to products
        </Link>
      }
    >
      <section aria-labelledby="csv-export">
        <h2 id="csv-export">Export</h2>
        <p>
          Every product, one row per size or style. Prices are in pounds (12.50), the reduction a whole percent, stock
          in units.
        </p>
        <a className="button button-secondary adm-small" href={productsCsvHref} download>
          Download all products (CSV)
        </a>
      </section>
      {may('POST /products/import') ? (
        <ImportSection />
      ) : (
        me.data && (
          <section aria-labelledby="csv-import">
            <h2 id="csv-import">Import</h2>
            <p>Your role does not include importing products from a file.</p>
          </section>
        )
      )}
    </AdminPage>
  );
}

type Stage =
  | { kind: 'none' }
  | { kind: 'previewed'; summary: ProductImportSummary }
  | { kind: 'applied'; summary: ProductImportSummary };

function ImportSection() {
  const queryClient = useQueryClient();
  const [csv, setCsv] = useState<string | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'none' });
  const [problem, setProblem] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const result = useRef<HTMLHeadingElement>(null);
  const [focusResult, setFocusResult] = useState(0);
  useEffect(() => {
    if (focusResult > 0) result.current?.focus();
  }, [focusResult]);

  async function act(work: () => Promise<Stage>) {
    setBusy(true);
    setProblem(null);
    try {
      setStage(await work());
    } catch (error) {
      setProblem(error);
      setStage({ kind: 'none' });
    } finally {
      setBusy(false);
      setFocusResult((n) => n + 1);
    }
  }

  async function preview(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = new FormData(event.currentTarget).get('file');
    if (!(file instanceof File) || file.size === 0) {
      setProblem(new Error('Please choose a CSV file.'));
      setFocusResult((n) => n + 1);
      return;
    }
    if (file.size > MAX_IMPORT_BYTES) {
      setProblem(new Error(`The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Split it in two.`));
      setFocusResult((n) => n + 1);
      return;
    }
    const text = await file.text();
    setCsv(text);
    await act(async () => ({ kind: 'previewed', summary: await previewProductImport(text) }));
  }

  const canApply = stage.kind === 'previewed' && stage.summary.errorCount === 0 && csv !== null && !busy;
  return (
    <section aria-labelledby="csv-import">
      <h2 id="csv-import">Import</h2>
      <p className="adm-hint" id="csv-file-hint">
        The columns, in any order: {productCsvHeader.join(', ')}. Products are found by URL key, sizes by name; sizes
        not in the file are left as they are. A stock level is reached by a correction adjustment; leave Stock blank to
        keep a size&apos;s stock as it is.
      </p>
      <form className="adm-row" onSubmit={(event) => void preview(event)}>
        <div className="field adm-field">
          <label htmlFor="csv-file">CSV file</label>
          <input
            id="csv-file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            className="input"
            aria-describedby="csv-file-hint"
            onChange={() => {
              setStage({ kind: 'none' });
              setCsv(null);
              setProblem(null);
            }}
          />
        </div>
        <div className="adm-field">
          <button type="submit" className="button adm-small" disabled={busy}>
            Preview the import
          </button>
        </div>
      </form>

      {(problem || stage.kind !== 'none') && (
        <div className="adm-import-result">
          <h3 ref={result} tabIndex={-1}>
            {problem ? 'The file was not imported' : stage.kind === 'applied' ? 'Imported' : 'Preview'}
          </h3>
          {problem ? <Refusal error={problem} /> : null}
          {stage.kind !== 'none' && <Summary summary={stage.summary} />}
          {stage.kind === 'previewed' && (
            <button
              type="button"
              className="button adm-small"
              disabled={!canApply}
              aria-describedby="csv-apply-hint"
              onClick={() =>
                csv !== null &&
                void act(async () => ({ kind: 'applied', summary: await applyProductImport(csv, queryClient) }))
              }
            >
              Apply the import
            </button>
          )}
          {stage.kind === 'previewed' && (
            <p className="adm-hint" id="csv-apply-hint">
              {stage.summary.errorCount > 0
                ? 'Correct the errors in the file, then preview it again: nothing is imported while there is one.'
                : 'Every row is written in one go, or none of them.'}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/** A refusal: the server's words, and each row and column it named. */
export function Refusal({ error }: { error: unknown }) {
  const text = error instanceof ApiRequestError ? problemText(error) : (error as Error).message;
  // A refusal of the whole file names `file` with the same words: said once is enough.
  const fields = (error instanceof ApiRequestError ? error.fields : []).filter((field) => field.message !== text);
  return (
    <div className="adm-alert" role="alert">
      <p>{text}</p>
      {fields.length > 0 && (
        <ul>
          {fields.map((field) => (
            <li key={`${field.field}: ${field.message}`}>
              {field.field === 'file' ? '' : `${field.field}: `}
              {field.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Summary({ summary }: { summary: ProductImportSummary }) {
  const verb = summary.applied ? '' : ' to be';
  return (
    <>
      {summary.errorCount > 0 ? (
        <p className="adm-alert" role="alert">
          The file has {plural(summary.errorCount, 'error')}. Nothing can be imported until{' '}
          {summary.errorCount === 1 ? 'it is' : 'they are'} corrected.
        </p>
      ) : (
        <p className="adm-done" role="status">
          {summary.applied ? 'Imported' : 'Ready to import'}: {plural(summary.rows, 'row')},{' '}
          {plural(summary.productsCreated, 'product')}
          {verb} created, {summary.productsUpdated}
          {verb} updated, {summary.productsUnchanged} unchanged; {plural(summary.sizesCreated, 'new size')},{' '}
          {plural(summary.sizesUpdated, 'size')} repriced or renamed,{' '}
          {plural(summary.stockAdjustments, 'stock correction')}.
        </p>
      )}
      {summary.errors.length > 0 && (
        <DataTable
          caption={`Errors${summary.errors.length < summary.errorCount ? ` (the first ${summary.errors.length})` : ''}`}
          captionShown
          columns={errorColumns}
          rows={summary.errors}
        />
      )}
      {summary.errorCount === 0 && summary.changes.length > 0 && (
        <DataTable
          caption={`Changes${
            summary.changes.length < summary.productsCreated + summary.productsUpdated
              ? ` (the first ${summary.changes.length})`
              : ''
          }`}
          captionShown
          columns={changeColumns}
          rows={summary.changes}
          rowKey={(change) => change.urlKey}
        />
      )}
    </>
  );
}

const errorColumn = dataColumns<ProductImportSummary['errors'][number]>();
const errorColumns = [
  errorColumn.accessor('row', { header: 'Row', meta: { numeric: true } }),
  errorColumn.accessor('column', { header: 'Column', cell: (info) => info.getValue() ?? 'the whole row' }),
  errorColumn.accessor('message', { header: 'Problem' }),
];

const changeColumn = dataColumns<ProductImportSummary['changes'][number]>();
const changeColumns = [
  changeColumn.accessor('row', { header: 'Row', meta: { numeric: true } }),
  changeColumn.display({
    id: 'product',
    header: 'Product',
    cell: ({ row: { original: change } }) => (
      <>
        {change.title}
        <br />
        <small>/products/{change.urlKey}</small>
      </>
    ),
  }),
  changeColumn.display({
    id: 'what',
    header: 'What',
    cell: ({ row: { original: change } }) => (change.action === 'create' ? 'New product' : change.changes.join('; ')),
  }),
];
