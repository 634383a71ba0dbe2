import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { ProductDetail } from '../../../../contract/admin/catalogue.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { humanise } from '../../lib/format.ts';
import { AuditTable } from '../../ui/audit-list.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import {
  brandsQueryOptions,
  packagingsQueryOptions,
  duplicateProduct,
  productQueryOptions,
  saveProduct,
  typesQueryOptions,
} from './api/catalogue.ts';
import { ProductForm } from './product-form.tsx';
import { ProductPhotos } from './product-photos.tsx';

/** A product, new (/products/new) or saved (/products/{id}): its form, photos, old addresses and history. */
export default function ProductPage() {
  const param = useParams().id;
  const id = param === 'new' ? undefined : Number(param);
  const product = useQuery({ ...productQueryOptions(id ?? 0), enabled: id !== undefined && Number.isInteger(id) });
  const types = useQuery(typesQueryOptions());
  const brands = useQuery(brandsQueryOptions());
  const packagings = useQuery(packagingsQueryOptions());
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [saved, setSaved] = useState('');
  const [problem, setProblem] = useState<unknown>(null);
  const ready = types.data && brands.data && (id === undefined || product.data);

  return (
    <AdminPage title={id === undefined ? 'New product' : (product.data?.title ?? 'Product')}>
      <p>
        <Link to="/products">Back to the products</Link>
      </p>
      <ErrorAlert error={problem ?? product.error ?? types.error ?? brands.error} />
      {saved && (
        <p className="adm-done" role="status">
          {saved}
        </p>
      )}
      {product.data && (
        <ProductActions
          product={product.data}
          onDuplicate={async () => {
            setProblem(null);
            try {
              const copy = await duplicateProduct(product.data.id, queryClient);
              setSaved(`This is a copy of "${product.data.title}", saved as a draft.`);
              await navigate(`/products/${copy.id}`);
            } catch (error) {
              setProblem(error);
            }
          }}
        />
      )}
      {ready && (
        <div className="adm-product-layout">
          <ProductForm
            // A new form for each product.
            key={`${product.data?.id ?? 'new'}`}
            product={product.data}
            types={types.data}
            brands={brands.data}
            packagings={packagings.data}
            onSave={async (input) => {
              setSaved('');
              const answer = await saveProduct(id, input, queryClient);
              setSaved(`Saved. "${answer.title}" is ${answer.status}.`);
              return answer;
            }}
            onSaved={(answer) => {
              if (id === undefined) void navigate(`/products/${answer.id}`, { replace: true });
            }}
          />
          <ProductPhotos product={product.data} />
        </div>
      )}
      {product.data && (
        <>
          {product.data.oldUrlKeys.length > 0 && (
            <section aria-labelledby="product-old-keys">
              <h2 id="product-old-keys">Old addresses</h2>
              <p className="adm-hint">Each sends shoppers and search engines to the product’s page (a 301).</p>
              <ul>
                {product.data.oldUrlKeys.map((key) => (
                  <li key={key}>/products/{key}</li>
                ))}
              </ul>
            </section>
          )}
          <h2>History</h2>
          <AuditTable entries={product.data.audit} caption="Changes to this product" />
        </>
      )}
    </AdminPage>
  );
}

function ProductActions(props: { product: ProductDetail; onDuplicate: () => Promise<void> }) {
  const { product } = props;
  return (
    <div className="adm-row">
      <span className="adm-badge">{humanise(product.status)}</span>
      {product.status === 'published' && (
        <a href={`/products/${encodeURIComponent(product.urlKey)}`} target="_blank" rel="noreferrer">
          View in the shop<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      )}
      <button type="button" className="button button-secondary adm-small" onClick={() => void props.onDuplicate()}>
        Duplicate
      </button>
    </div>
  );
}
