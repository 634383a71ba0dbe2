import { useQuery, useQueryClient } from '@tanstack/react-query';
import { plural } from '../../../../contract/words.ts';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { ProductListQuery, ProductSummary } from '../../../../contract/admin/catalogue.ts';
import { productStatuses } from '../../../../contract/catalog-rules.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { formatPence, humanise } from '../../lib/format.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field, SelectField } from '../../ui/field.tsx';
import { DataTable, dataColumns } from '../../ui/data-table.tsx';
import type { PagerProps } from '../../ui/pager.tsx';
import {
  brandsQueryOptions,
  duplicateProduct,
  productListQueryOptions,
  setProductStatus,
  typesQueryOptions,
} from './api/catalogue.ts';
import { filtersFromSearch, searchOf } from './product-filters.ts';
import { typeOptions } from './type-options.ts';

/** Products: find them by title, type, brand and status (kept in the URL), then edit, copy, publish or archive. */
export default function ProductsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const query = filtersFromSearch(searchParams);
  const products = useQuery(productListQueryOptions(query));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<unknown>(null);
  const [done, setDone] = useState('');

  function go(next: Partial<ProductListQuery>) {
    setSearchParams(new URLSearchParams(searchOf({ ...query, ...next })));
  }

  function applyFilters(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = (key: string) => String(data.get(key) ?? '').trim() || undefined;
    go(
      filtersFromSearch(
        new URLSearchParams(
          Object.entries({ q: value('q'), typeId: value('typeId'), brandId: value('brandId'), status: value('status') })
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, v as string]),
        ),
      ),
    );
  }

  async function act(task: () => Promise<string>) {
    setProblem(null);
    setDone('');
    try {
      setDone(await task());
    } catch (error) {
      setProblem(error);
    }
  }

  return (
    <AdminPage
      title="Products"
      actions={
        <div className="adm-row">
          <Link className="button button-secondary adm-small" to="/products/csv">
            Import or export CSV
          </Link>
          <Link className="button adm-small" to="/products/new">
            Add a product
          </Link>
        </div>
      }
    >
      <Filters
        key={searchOf({ ...query, page: 1 })}
        query={query}
        onSubmit={applyFilters}
        onClear={() => setSearchParams({})}
      />
      <ErrorAlert error={problem ?? products.error} />
      {done && (
        <p className="adm-done" role="status">
          {done}
        </p>
      )}
      {products.data && (
        <>
          <p role="status" className="visually-hidden">
            {plural(products.data.total, 'product')} found
          </p>
          <ProductTable
            products={products.data.products}
            onDuplicate={(product) =>
              act(async () => {
                const copy = await duplicateProduct(product.id, queryClient);
                await navigate(`/products/${copy.id}`);
                return '';
              })
            }
            onStatus={(product, status) =>
              act(async () => {
                await setProductStatus(product.id, status, queryClient);
                return `"${product.title}" is ${status} now.`;
              })
            }
            pager={{ label: 'Product pages', list: products.data, onPage: (page) => go({ page }) }}
          />
        </>
      )}
    </AdminPage>
  );
}

function Filters(props: {
  query: ProductListQuery;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onClear: () => void;
}) {
  const types = useQuery(typesQueryOptions());
  const brands = useQuery(brandsQueryOptions());
  const { query } = props;
  return (
    <form className="adm-filters" role="search" aria-label="Find products" onSubmit={props.onSubmit}>
      <Field id="products-q" name="q" type="search" label="Title" defaultValue={query.q ?? ''} />
      <SelectField id="products-type" name="typeId" label="Type" defaultValue={String(query.typeId ?? '')}>
        <option value="">Any type</option>
        {typeOptions(types.data).map(({ type, path }) => (
          <option key={type.id} value={type.id}>
            {path}
          </option>
        ))}
      </SelectField>
      <SelectField id="products-brand" name="brandId" label="Brand" defaultValue={String(query.brandId ?? '')}>
        <option value="">Any brand</option>
        {brands.data?.map((brand) => (
          <option key={brand.id} value={brand.id}>
            {brand.name}
          </option>
        ))}
      </SelectField>
      <SelectField id="products-status" name="status" label="Status" defaultValue={query.status ?? ''}>
        <option value="">Any status</option>
        {productStatuses.map((status) => (
          <option key={status} value={status}>
            {humanise(status)}
          </option>
        ))}
      </SelectField>
      <div className="adm-row adm-field">
        <button type="submit" className="button adm-small">
          Find products
        </button>
        <button type="button" className="button button-secondary adm-small" onClick={props.onClear}>
          Clear
        </button>
      </div>
    </form>
  );
}

const helper = dataColumns<ProductSummary>();

function ProductTable(props: {
  products: ProductSummary[];
  onDuplicate: (product: ProductSummary) => Promise<void>;
  onStatus: (product: ProductSummary, status: ProductSummary['status']) => Promise<void>;
  pager: PagerProps;
}) {
  const columns = helper.columns([
    helper.accessor('title', {
      header: 'Title',
      cell: (info) => (
        <>
          <Link to={`/products/${info.row.original.id}`}>{info.getValue()}</Link>
          <br />
          <small>/products/{info.row.original.urlKey}</small>
        </>
      ),
    }),
    helper.accessor('status', {
      header: 'Status',
      cell: (info) => <span className="adm-badge">{humanise(info.getValue())}</span>,
    }),
    helper.accessor('productTypeName', { header: 'Type' }),
    helper.accessor('brandName', { header: 'Brand' }),
    helper.accessor('sizes', { header: 'Sizes', meta: { numeric: true } }),
    helper.accessor('stock', { header: 'In stock', meta: { numeric: true } }),
    helper.accessor('lowestPrice', {
      header: 'From',
      meta: { numeric: true },
      cell: (info) => (info.getValue() === null ? '' : formatPence(info.getValue() ?? 0)),
    }),
    helper.display({
      id: 'actions',
      header: 'Actions',
      cell: (info) => {
        const product = info.row.original;
        return (
          <div className="adm-row">
            <button
              type="button"
              className="button button-secondary adm-small"
              onClick={() => void props.onDuplicate(product)}
            >
              Duplicate<span className="visually-hidden"> {product.title}</span>
            </button>
            {product.status === 'published' ? (
              <button
                type="button"
                className="button button-secondary adm-small"
                onClick={() => void props.onStatus(product, 'archived')}
              >
                Archive<span className="visually-hidden"> {product.title}</span>
              </button>
            ) : (
              <button
                type="button"
                className="button button-secondary adm-small"
                onClick={() => void props.onStatus(product, 'published')}
              >
                Publish<span className="visually-hidden"> {product.title}</span>
              </button>
            )}
          </div>
        );
      },
    }),
  ]);
  return (
    <DataTable
      caption="Products"
      columns={columns}
      rows={props.products}
      empty="No products match these filters."
      pager={props.pager}
    />
  );
}
