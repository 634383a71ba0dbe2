import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  brandInputSchema,
  productTypeInputSchema,
  type BrandInput,
  type BrandView,
  type ProductTypeInput,
  type ProductTypeView,
} from '../../../../contract/admin/catalogue.ts';
import { TOP_LEVEL_PARENT_ID } from '../../../../contract/catalog-rules.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field, SelectField } from '../../ui/field.tsx';
import { brandsQueryOptions, changeBrands, changeTypes, typesQueryOptions } from './api/catalogue.ts';
import { typeOptions } from './type-options.ts';

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
        <TypeTable
          types={types.data}
          onRename={(type, name, parentId) =>
            run(
              () => changeTypes({ method: 'PUT', path: `/${type.id}`, body: { name, parentId } }, queryClient),
              `Saved "${name}".`,
            )
          }
          onMove={(type, direction) =>
            run(
              () => changeTypes({ method: 'POST', path: `/${type.id}/reorder`, body: { direction } }, queryClient),
              `Moved "${type.name}" ${direction}.`,
            )
          }
          onDelete={(type) =>
            run(() => changeTypes({ method: 'DELETE', path: `/${type.id}` }, queryClient), `Deleted "${type.name}".`)
          }
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
        <BrandTable
          brands={brands.data}
          onRename={(brand, name) =>
            run(
              () => changeBrands({ method: 'PUT', path: `/${brand.id}`, body: { name } }, queryClient),
              `Saved "${name}".`,
            )
          }
          onMove={(brand, direction) =>
            run(
              () => changeBrands({ method: 'POST', path: `/${brand.id}/reorder`, body: { direction } }, queryClient),
              `Moved "${brand.name}" ${direction}.`,
            )
          }
          onDelete={(brand) =>
            run(() => changeBrands({ method: 'DELETE', path: `/${brand.id}` }, queryClient), `Deleted "${brand.name}".`)
          }
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

function TypeTable(props: {
  types: ProductTypeView[];
  onRename: (type: ProductTypeView, name: string, parentId: number) => Promise<boolean>;
  onMove: (type: ProductTypeView, direction: Direction) => Promise<boolean>;
  onDelete: (type: ProductTypeView) => Promise<boolean>;
}) {
  const options = typeOptions(props.types);
  return (
    <div className="adm-table-wrap">
      <table className="adm-table" aria-labelledby="types-heading">
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Inside</th>
            <th scope="col" className="adm-num">
              Products
            </th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {options.map(({ type, depth, path }) => (
            <TypeRow
              key={`${type.id}-${type.name}-${type.parentId}`}
              type={type}
              depth={depth}
              path={path}
              parents={options.filter((o) => o.type.id !== type.id && !o.path.startsWith(`${path} › `))}
              {...props}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TypeRow(props: {
  type: ProductTypeView;
  depth: number;
  path: string;
  parents: ReturnType<typeof typeOptions>;
  onRename: (type: ProductTypeView, name: string, parentId: number) => Promise<boolean>;
  onMove: (type: ProductTypeView, direction: Direction) => Promise<boolean>;
  onDelete: (type: ProductTypeView) => Promise<boolean>;
}) {
  const { type } = props;
  const [name, setName] = useState(type.name);
  const [parentId, setParentId] = useState(String(type.parentId));
  const changed = name.trim() !== type.name || Number(parentId) !== type.parentId;
  return (
    <tr>
      <td>
        <label className="visually-hidden" htmlFor={`type-${type.id}-name`}>
          Name of {props.path}
        </label>
        <input
          id={`type-${type.id}-name`}
          className="input"
          style={{ marginLeft: `${props.depth * 1.5}rem`, maxWidth: '16rem' }}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </td>
      <td>
        <label className="visually-hidden" htmlFor={`type-${type.id}-parent`}>
          Where {type.name} goes
        </label>
        <select
          id={`type-${type.id}-parent`}
          className="input"
          value={parentId}
          onChange={(event) => setParentId(event.target.value)}
        >
          <option value={TOP_LEVEL_PARENT_ID}>At the top</option>
          {props.parents.map(({ type: parent, path }) => (
            <option key={parent.id} value={parent.id}>
              {path}
            </option>
          ))}
        </select>
      </td>
      <td className="adm-num">{type.products}</td>
      <td>
        <RowActions
          name={type.name}
          canSave={changed && name.trim() !== ''}
          onSave={() => props.onRename(type, name.trim(), Number(parentId))}
          onMove={(direction) => props.onMove(type, direction)}
          onDelete={() => props.onDelete(type)}
        />
      </td>
    </tr>
  );
}

function BrandTable(props: {
  brands: BrandView[];
  onRename: (brand: BrandView, name: string) => Promise<boolean>;
  onMove: (brand: BrandView, direction: Direction) => Promise<boolean>;
  onDelete: (brand: BrandView) => Promise<boolean>;
}) {
  return (
    <div className="adm-table-wrap">
      <table className="adm-table" aria-labelledby="brands-heading">
        <thead>
          <tr>
            <th scope="col">Brand</th>
            <th scope="col" className="adm-num">
              Products
            </th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {props.brands.map((brand) => (
            <BrandRow key={`${brand.id}-${brand.name}`} brand={brand} {...props} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function BrandRow(props: {
  brand: BrandView;
  onRename: (brand: BrandView, name: string) => Promise<boolean>;
  onMove: (brand: BrandView, direction: Direction) => Promise<boolean>;
  onDelete: (brand: BrandView) => Promise<boolean>;
}) {
  const { brand } = props;
  const [name, setName] = useState(brand.name);
  return (
    <tr>
      <td>
        <label className="visually-hidden" htmlFor={`brand-${brand.id}-name`}>
          Name of {brand.name}
        </label>
        <input
          id={`brand-${brand.id}-name`}
          className="input"
          style={{ maxWidth: '16rem' }}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </td>
      <td className="adm-num">{brand.products}</td>
      <td>
        <RowActions
          name={brand.name}
          canSave={name.trim() !== brand.name && name.trim() !== ''}
          onSave={() => props.onRename(brand, name.trim())}
          onMove={(direction) => props.onMove(brand, direction)}
          onDelete={() => props.onDelete(brand)}
        />
      </td>
    </tr>
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
