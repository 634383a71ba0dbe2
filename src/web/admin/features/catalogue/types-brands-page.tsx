import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  brandInputSchema,
  productTypeInputSchema,
  type BrandInput,
  type ProductTypeInput,
  type ProductTypeView,
} from '../../../../contract/admin/catalogue.ts';
import { TOP_LEVEL_PARENT_ID } from '../../../../contract/catalog-rules.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { DataTable, dataColumns } from '../../ui/data-table.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field, SelectField } from '../../ui/field.tsx';
import { brandsQueryOptions, changeBrands, changeTypes, typesQueryOptions } from './api/catalogue.ts';
import { typeOptions, type TypeOption } from './type-options.ts';

/**
 * Product types (a tree) and brands: add, rename, move, reorder, delete. The shop's menu, search
 * filters and footer read the same lists, in this order.
 */
export default function TypesBrandsPage() {
  const types = useQuery(typesQueryOptions());
  const brands = useQuery(brandsQueryOptions());
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const [done, setDone] = useState('');
  const typeList = typeOptions(types.data);

  async function run(task: () => Promise<unknown>, message: string): Promise<boolean> {
    setProblem(null);
    setDone('');
    try {
      await task();
      setDone(message);
      return true;
    } catch (error) {
      setProblem(error);
      return false;
    }
  }

  /** Save, up, down and delete for one of the lists, sent by `change` to its own endpoint. */
  function listActions<TBody>(
    change: (request: {
      method: 'POST' | 'PUT' | 'DELETE';
      path: string;
      body?: TBody | { direction: Direction };
    }) => Promise<unknown>,
    bodyOf: (draft: Draft) => TBody,
  ) {
    return {
      onSave: (entry: Named, draft: Draft) =>
        run(() => change({ method: 'PUT', path: `/${entry.id}`, body: bodyOf(draft) }), `Saved "${draft.name}".`),
      onMove: (entry: Named, direction: Direction) =>
        run(
          () => change({ method: 'POST', path: `/${entry.id}/reorder`, body: { direction } }),
          `Moved "${entry.name}" ${direction}.`,
        ),
      onDelete: (entry: Named) =>
        run(() => change({ method: 'DELETE', path: `/${entry.id}` }), `Deleted "${entry.name}".`),
    };
  }
  const typeActions = listActions<ProductTypeInput>(
    (request) => changeTypes(request, queryClient),
    ({ name, parentId }) => ({ name, parentId }),
  );
  const brandActions = listActions<BrandInput>(
    (request) => changeBrands(request, queryClient),
    ({ name }) => ({ name }),
  );

  return (
    <AdminPage title="Types and brands">
      <ErrorAlert error={problem ?? types.error ?? brands.error} />
      {done && (
        <p className="adm-done" role="status">
          {done}
        </p>
      )}
      <h2 id="types-heading">Product types</h2>
      {types.data && (
        <CatalogueList
          caption="Product types"
          nameHeader="Type"
          idPrefix="type"
          entries={typeList.map(({ type, depth, path }) => ({ entry: type, depth, path }))}
          placesFor={({ entry, path }) =>
            typeList.filter((o) => o.type.id !== entry.id && !o.path.startsWith(`${path} › `))
          }
          {...typeActions}
        />
      )}
      <h3>Add a type</h3>
      <AddTypeForm
        types={types.data ?? []}
        onAdd={(input) =>
          run(() => changeTypes({ method: 'POST', path: '', body: input }, queryClient), `Added "${input.name}".`)
        }
      />

      <h2 id="brands-heading">Brands</h2>
      {brands.data && (
        <CatalogueList
          caption="Brands"
          nameHeader="Brand"
          idPrefix="brand"
          entries={brands.data.map((brand) => ({ entry: brand, depth: 0, path: brand.name }))}
          {...brandActions}
        />
      )}
      <h3>Add a brand</h3>
      <AddBrandForm
        onAdd={(input) =>
          run(() => changeBrands({ method: 'POST', path: '', body: input }, queryClient), `Added "${input.name}".`)
        }
      />
    </AdminPage>
  );
}

type Direction = 'up' | 'down';

/** What both lists' rows have: a type and a brand alike. */
interface Named {
  id: number;
  name: string;
}

/** A type or a brand as its list shows it: indented under its parent, and named by its path. */
interface Listed<T> {
  entry: T;
  depth: number;
  path: string;
}

/** A row's name and place as typed, not saved yet. */
interface Draft {
  name: string;
  parentId: number;
}

/**
 * Product types or brands, each row edited in place: its name, for a type where it goes, then
 * save, up, down or delete. What is typed stays in its row until the row itself changes (saved,
 * or changed by someone else), as it would in a form of its own.
 */
function CatalogueList<T extends Named & { products: number; parentId?: number }>(props: {
  caption: string;
  nameHeader: string;
  idPrefix: 'type' | 'brand';
  entries: Array<Listed<T>>;
  /** The places a type may go (not inside itself); brands have none. */
  placesFor?: (listed: Listed<T>) => TypeOption[];
  onSave: (entry: T, draft: Draft) => Promise<boolean>;
  onMove: (entry: T, direction: Direction) => Promise<boolean>;
  onDelete: (entry: T) => Promise<boolean>;
}) {
  const [drafts, setDrafts] = useState<Partial<Record<number, { from: Draft; now: Draft }>>>({});
  const saved = (entry: T): Draft => ({ name: entry.name, parentId: entry.parentId ?? TOP_LEVEL_PARENT_ID });
  const same = (a: Draft, b: Draft) => a.name === b.name && a.parentId === b.parentId;
  const draftOf = (entry: T): Draft => {
    const draft = drafts[entry.id];
    return draft && same(draft.from, saved(entry)) ? draft.now : saved(entry);
  };
  const edit = (entry: T, change: Partial<Draft>) =>
    setDrafts((all) => ({ ...all, [entry.id]: { from: saved(entry), now: { ...draftOf(entry), ...change } } }));
  const idOf = (entry: T, field: string) => `${props.idPrefix}-${entry.id}-${field}`;
  const { placesFor } = props;

  const helper = dataColumns<Listed<T>>();
  const columns = helper.columns([
    helper.display({
      id: 'name',
      header: props.nameHeader,
      cell: ({ row: { original: listed } }) => (
        <>
          <label className="visually-hidden" htmlFor={idOf(listed.entry, 'name')}>
            Name of {listed.path}
          </label>
          <input
            id={idOf(listed.entry, 'name')}
            className="input"
            style={{ marginLeft: `${listed.depth * 1.5}rem`, maxWidth: '16rem' }}
            value={draftOf(listed.entry).name}
            onChange={(event) => edit(listed.entry, { name: event.target.value })}
          />
        </>
      ),
    }),
    ...(placesFor
      ? [
          helper.display({
            id: 'place',
            header: 'Inside',
            cell: ({ row: { original: listed } }) => (
              <>
                <label className="visually-hidden" htmlFor={idOf(listed.entry, 'parent')}>
                  Where {listed.entry.name} goes
                </label>
                <select
                  id={idOf(listed.entry, 'parent')}
                  className="input"
                  value={draftOf(listed.entry).parentId}
                  onChange={(event) => edit(listed.entry, { parentId: Number(event.target.value) })}
                >
                  <option value={TOP_LEVEL_PARENT_ID}>At the top</option>
                  {placesFor(listed).map(({ type: parent, path }) => (
                    <option key={parent.id} value={parent.id}>
                      {path}
                    </option>
                  ))}
                </select>
              </>
            ),
          }),
        ]
      : []),
    helper.accessor((listed) => listed.entry.products, { id: 'products', header: 'Products', meta: { numeric: true } }),
    helper.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row: { original: listed } }) => {
        const draft = draftOf(listed.entry);
        const typed = { name: draft.name.trim(), parentId: draft.parentId };
        return (
          <RowActions
            name={listed.entry.name}
            canSave={typed.name !== '' && !same(typed, saved(listed.entry))}
            onSave={() => props.onSave(listed.entry, typed)}
            onMove={(direction) => props.onMove(listed.entry, direction)}
            onDelete={() => props.onDelete(listed.entry)}
          />
        );
      },
    }),
  ]);
  return (
    <DataTable
      caption={props.caption}
      columns={columns}
      rows={props.entries}
      rowKey={(listed) => String(listed.entry.id)}
    />
  );
}

/** Save, up, down and delete for one row; each button names the row for a screen reader. */
function RowActions(props: {
  name: string;
  canSave: boolean;
  onSave: () => Promise<boolean>;
  onMove: (direction: Direction) => Promise<boolean>;
  onDelete: () => Promise<boolean>;
}) {
  const actions: Array<[label: string, run: () => Promise<boolean>, primary?: boolean]> = [
    ['Save', props.onSave, true],
    ['Up', () => props.onMove('up')],
    ['Down', () => props.onMove('down')],
    ['Delete', props.onDelete],
  ];
  return (
    <div className="adm-row">
      {actions.map(([label, run, primary]) => (
        <button
          key={label}
          type="button"
          className={primary ? 'button adm-small' : 'button button-secondary adm-small'}
          disabled={primary ? !props.canSave : false}
          onClick={() => void run()}
        >
          {label}
          <span className="visually-hidden"> {props.name}</span>
        </button>
      ))}
    </div>
  );
}

function AddTypeForm(props: { types: ProductTypeView[]; onAdd: (input: ProductTypeInput) => Promise<boolean> }) {
  const form = useForm<ProductTypeInput>({
    resolver: zodResolver(productTypeInputSchema),
    defaultValues: { name: '', parentId: TOP_LEVEL_PARENT_ID },
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form
      noValidate
      aria-label="Add a type"
      className="adm-form"
      onSubmit={form.handleSubmit(async (values) => {
        if (await props.onAdd(values)) form.reset();
      })}
    >
      <Field
        id="new-type-name"
        label="Type name"
        autoComplete="off"
        error={errors.name?.message}
        {...form.register('name')}
      />
      <SelectField
        id="new-type-parent"
        label="Goes"
        error={errors.parentId?.message}
        {...form.register('parentId', { valueAsNumber: true })}
      >
        <option value={TOP_LEVEL_PARENT_ID}>At the top</option>
        {typeOptions(props.types).map(({ type, path }) => (
          <option key={type.id} value={type.id}>
            Inside {path}
          </option>
        ))}
      </SelectField>
      <button type="submit" className="button adm-small" disabled={isSubmitting}>
        Add the type
      </button>
    </form>
  );
}

function AddBrandForm(props: { onAdd: (input: BrandInput) => Promise<boolean> }) {
  const form = useForm<BrandInput>({ resolver: zodResolver(brandInputSchema), defaultValues: { name: '' } });
  const { errors, isSubmitting } = form.formState;
  return (
    <form
      noValidate
      aria-label="Add a brand"
      className="adm-form"
      onSubmit={form.handleSubmit(async (values) => {
        if (await props.onAdd(values)) form.reset();
      })}
    >
      <Field
        id="new-brand-name"
        label="Brand name"
        autoComplete="off"
        error={errors.name?.message}
        {...form.register('name')}
      />
      <button type="submit" className="button adm-small" disabled={isSubmitting}>
        Add the brand
      </button>
    </form>
  );
}
