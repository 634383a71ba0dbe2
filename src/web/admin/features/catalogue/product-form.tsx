import { useState } from 'react';
import { useFieldArray, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { z } from 'zod';
import {
  MAX_SIZES,
  productInputSchema,
  type ProductDetail,
  type ProductInput,
  type ProductTypeView,
  type BrandView,
} from '../../../../contract/admin/catalogue.ts';
import type { Packaging } from '../../../../contract/admin/shipping.ts';
import { productStatuses, slugify, type ProductStatus } from '../../../../contract/catalog-rules.ts';
import { discountedPrice } from '../../../../contract/money.ts';
import { ApiRequestError } from '../../../lib/api.ts';
import { formatPence, humanise, penceToDecimal, poundsToPence } from '../../lib/format.ts';
import { contractResolver } from '../../lib/contract-resolver.ts';
import { useLeaveGuard } from '../../lib/leave-guard.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field, SelectField, TextAreaField } from '../../ui/field.tsx';
import { typeOptions } from './type-options.ts';

/**
 * The product form. What may be saved is the contract's to say (productInputSchema, the schema the
 * server holds to, with its messages): the form checks only that each field can be read, prices
 * typed in pounds and turned into integer pence. An existing size's stock is shown, never edited:
 * stock changes are adjustments (docs/back-office.md#stock).
 */
/** A box's three sides as the packagings page writes them. */
const sides = (box: Packaging) => `${box.lengthMm} × ${box.widthMm} × ${box.heightMm} mm`;

/**
 * What the chosen preset is, beside the field: two presets of one name are told apart by size, and
 * its empty weight is what the label adds to the goods' (a phone's select shows only the name).
 */
function presetHint(packagings: Packaging[] | undefined, chosenId: string | undefined): string | undefined {
  const chosen = packagings?.find((packaging) => String(packaging.id) === chosenId);
  return chosen && `${sides(chosen)}, ${chosen.weightGrams} g empty: added to the weight above.`;
}

/** A size's parcel facts as typed: numbers as text, the packaging's id ('' for its own box). */
interface ParcelValues {
  weightGrams: string;
  packagingId: string;
  lengthMm: string;
  widthMm: string;
  heightMm: string;
}
const noParcel = (): ParcelValues => ({ weightGrams: '', packagingId: '', lengthMm: '', widthMm: '', heightMm: '' });
const typedNumber = (typed: string) => (typed.trim() === '' ? null : Number(typed.trim()));

const typedSize = z
  .object({
    price: z
      .string()
      .refine((typed) => poundsToPence(typed) !== undefined, 'Please enter the price in pounds, such as 129.99'),
    priceReduction: z.string().trim().regex(/^\d+$/, 'Please enter a whole percent, 0 for none'),
    stock: z.string(),
    sizeId: z.number().optional(),
    parcel: z
      .object({
        weightGrams: z.string(),
        packagingId: z.string(),
        lengthMm: z.string(),
        widthMm: z.string(),
        heightMm: z.string(),
      })
      .superRefine((parcel, ctx) => {
        const whole = (field: keyof typeof parcel, message: string) => {
          if (!/^\d*$/.test(parcel[field].trim())) ctx.addIssue({ code: 'custom', path: [field], message });
        };
        whole('weightGrams', 'Please enter the weight in whole grams');
        // Sent in a preset, its own sides are neither sent nor read.
        if (parcel.packagingId !== '') return;
        whole('lengthMm', 'Please enter the length in whole millimetres');
        whole('widthMm', 'Please enter the width in whole millimetres');
        whole('heightMm', 'Please enter the height in whole millimetres');
      }),
  })
  .superRefine((size, ctx) => {
    if (size.sizeId === undefined && !/^\d+$/.test(size.stock.trim())) {
      ctx.addIssue({ code: 'custom', path: ['stock'], message: 'Please enter the stock of a new size' });
    }
  });
const typedForm = z.object({ sizes: z.array(typedSize) });

interface SizeValues {
  /** The saved size's id (`id` is useFieldArray's own key). */
  sizeId?: number;
  sizeName: string;
  price: string;
  priceReduction: string;
  stock: string;
  /** What the shop has now (existing sizes only). */
  stockNow?: number;
  ordered?: boolean;
  parcel: ParcelValues;
}
interface ProductFormValues {
  title: string;
  urlKey: string;
  productTypeId: string;
  brandId: string;
  description: string;
  seoTitle: string;
  seoKeywords: string;
  seoDescription: string;
  searchTags: string;
  status: ProductStatus;
  madeToOrder: boolean;
  sizes: SizeValues[];
}

const resolver = contractResolver<ProductFormValues, typeof productInputSchema>(productInputSchema, inputOf, {
  typed: typedForm,
  fieldOf: (path) => path.replace(/\.priceWithoutDiscount$/, '.price'),
});

const newSize = (): SizeValues => ({ sizeName: '', price: '', priceReduction: '0', stock: '0', parcel: noParcel() });

function valuesOf(product: ProductDetail | undefined): ProductFormValues {
  if (!product) {
    return {
      title: '',
      urlKey: '',
      productTypeId: '',
      brandId: '',
      description: '',
      seoTitle: '',
      seoKeywords: '',
      seoDescription: '',
      searchTags: '',
      status: 'draft',
      madeToOrder: false,
      sizes: [newSize()],
    };
  }
  return {
    title: product.title,
    urlKey: product.urlKey,
    productTypeId: String(product.productTypeId),
    brandId: String(product.brandId),
    description: product.description,
    seoTitle: product.seoTitle,
    seoKeywords: product.seoKeywords,
    seoDescription: product.seoDescription,
    searchTags: product.searchTags,
    status: product.status,
    madeToOrder: product.madeToOrder,
    sizes: product.sizes.map((size) => ({
      sizeId: size.id,
      sizeName: size.sizeName,
      price: penceToDecimal(size.priceWithoutDiscount),
      priceReduction: String(size.priceReduction),
      stock: '',
      stockNow: size.stock,
      ordered: size.ordered,
      parcel: {
        weightGrams: size.parcel.weightGrams === null ? '' : String(size.parcel.weightGrams),
        packagingId: size.parcel.packagingId === null ? '' : String(size.parcel.packagingId),
        lengthMm: size.parcel.lengthMm === null ? '' : String(size.parcel.lengthMm),
        widthMm: size.parcel.widthMm === null ? '' : String(size.parcel.widthMm),
        heightMm: size.parcel.heightMm === null ? '' : String(size.parcel.heightMm),
      },
    })),
  };
}

function inputOf(values: ProductFormValues): ProductInput {
  return {
    title: values.title,
    urlKey: values.urlKey,
    productTypeId: Number(values.productTypeId),
    brandId: Number(values.brandId),
    description: values.description,
    seoTitle: values.seoTitle,
    seoKeywords: values.seoKeywords,
    seoDescription: values.seoDescription,
    searchTags: values.searchTags,
    status: values.status,
    madeToOrder: values.madeToOrder,
    sizes: values.sizes.map((size) => ({
      ...(size.sizeId !== undefined ? { id: size.sizeId } : { stock: Number(size.stock.trim()) }),
      sizeName: size.sizeName,
      priceWithoutDiscount: poundsToPence(size.price) ?? 0,
      priceReduction: Number(size.priceReduction),
      parcel: {
        weightGrams: typedNumber(size.parcel.weightGrams),
        packagingId: typedNumber(size.parcel.packagingId),
        // Sent in a preset, its own dimensions are not kept.
        lengthMm: size.parcel.packagingId === '' ? typedNumber(size.parcel.lengthMm) : null,
        widthMm: size.parcel.packagingId === '' ? typedNumber(size.parcel.widthMm) : null,
        heightMm: size.parcel.packagingId === '' ? typedNumber(size.parcel.heightMm) : null,
      },
    })),
  };
}

/** The server's name for a field, as the form names it. */
function formField(field: string): FieldPath<ProductFormValues> | undefined {
  const path = field.replace(/\.priceWithoutDiscount$/, '.price');
  return /^(title|urlKey|productTypeId|brandId|description|seoTitle|seoKeywords|seoDescription|searchTags|status|sizes(\.\d+\.(sizeName|price|priceReduction|stock|parcel\.(weightGrams|packagingId|lengthMm|widthMm|heightMm)))?)$/.test(
    path,
  )
    ? (path as FieldPath<ProductFormValues>)
    : undefined;
}

export function ProductForm(props: {
  product: ProductDetail | undefined;
  types: ProductTypeView[];
  brands: BrandView[];
  /** The packaging presets a size may be sent in (docs/back-office.md#shipping-labels). */
  packagings?: Packaging[] | undefined;
  /** Answers the product as saved: the form starts again from it (new sizes now have their ids). */
  onSave: (input: ProductInput) => Promise<ProductDetail>;
  /** Then, with nothing left unsaved: a new product goes to its own page. */
  onSaved?: (product: ProductDetail) => void;
}) {
  const form = useForm<ProductFormValues>({
    resolver,
    defaultValues: valuesOf(props.product),
  });
  const sizes = useFieldArray({ control: form.control, name: 'sizes' });
  const typedSizes = useWatch({ control: form.control, name: 'sizes' });
  const [problem, setProblem] = useState<unknown>(null);
  const { errors, isSubmitting, dirtyFields, isDirty } = form.formState;
  const leaving = useLeaveGuard(isDirty);
  const creating = props.product === undefined;

  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      const saved = await props.onSave(inputOf(values));
      form.reset(valuesOf(saved));
      leaving.release();
      props.onSaved?.(saved);
    } catch (error) {
      // A refusal that names fields (a URL key another product has) is shown beside them.
      const named = error instanceof ApiRequestError ? error.fields.filter((f) => formField(f.field)) : [];
      for (const { field, message } of named) form.setError(formField(field)!, { message }, { shouldFocus: true });
      setProblem(error);
    }
  });

  const title = form.register('title', {
    onChange: (event: { target: { value: string } }) => {
      // A new product's URL key follows its title until staff type one of their own.
      if (creating && !dirtyFields.urlKey) form.setValue('urlKey', slugify(event.target.value));
    },
  });

  return (
    <form
      noValidate
      aria-label={creating ? 'New product' : 'Edit product'}
      className="adm-product-form"
      onSubmit={submit}
    >
      <ErrorAlert error={problem} />
      <section className="adm-card" aria-labelledby="product-main">
        <h2 id="product-main">Product</h2>
        <Field id="product-title" label="Title" autoComplete="off" error={errors.title?.message} {...title} />
        <Field
          id="product-url-key"
          label="URL key"
          autoComplete="off"
          hint={
            creating
              ? 'The page’s address: /products/your-key. Lower-case letters, digits and dashes.'
              : 'Changing it keeps the old address working: it sends shoppers and search engines here (a 301).'
          }
          error={errors.urlKey?.message}
          {...form.register('urlKey')}
        />
        <SelectField
          id="product-type"
          label="Type"
          error={errors.productTypeId?.message}
          {...form.register('productTypeId')}
        >
          <option value="">Choose a type</option>
          {typeOptions(props.types).map(({ type, path }) => (
            <option key={type.id} value={type.id}>
              {path}
            </option>
          ))}
        </SelectField>
        <SelectField id="product-brand" label="Brand" error={errors.brandId?.message} {...form.register('brandId')}>
          <option value="">Choose a brand</option>
          {props.brands.map((brand) => (
            <option key={brand.id} value={brand.id}>
              {brand.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="product-status"
          label="Status"
          hint="Only published products are shown to shoppers."
          error={errors.status?.message}
          {...form.register('status')}
        >
          {productStatuses.map((status) => (
            <option key={status} value={status}>
              {humanise(status)}
            </option>
          ))}
        </SelectField>
        <TextAreaField
          id="product-description"
          label="Description"
          rows={8}
          error={errors.description?.message}
          {...form.register('description')}
        />
        <Field
          id="product-search-tags"
          label="Search tags"
          autoComplete="off"
          hint="Other words shoppers may search by, such as bhangra or wedding. The type and brand are searched already."
          error={errors.searchTags?.message}
          {...form.register('searchTags')}
        />
        <div className="adm-field adm-check">
          <input
            id="product-made-to-order"
            type="checkbox"
            aria-describedby="product-made-to-order-hint"
            {...form.register('madeToOrder')}
          />
          <label htmlFor="product-made-to-order">Made to order</label>
          <p id="product-made-to-order-hint" className="adm-hint">
            Made for the customer: it cannot be returned for a change of mind (it can still come back faulty, damaged or
            wrong). The product page and checkout say so.
          </p>
        </div>
      </section>

      <fieldset className="adm-card">
        <legend>Sizes and styles</legend>
        {errors.sizes?.message && (
          <p className="field-error" role="alert">
            {errors.sizes.message}
          </p>
        )}
        {errors.sizes?.root?.message && (
          <p className="field-error" role="alert">
            {errors.sizes.root.message}
          </p>
        )}
        <ol className="adm-sizes">
          {sizes.fields.map((size, index) => {
            const sizeErrors = errors.sizes?.[index];
            const typed = typedSizes[index];
            const name = typed?.sizeName || `Size ${index + 1}`;
            return (
              <li key={size.id} className="adm-size">
                <Field
                  id={`size-${index}-name`}
                  label={`Size ${index + 1}: name`}
                  autoComplete="off"
                  error={sizeErrors?.sizeName?.message}
                  {...form.register(`sizes.${index}.sizeName`)}
                />
                <Field
                  id={`size-${index}-price`}
                  label={`Size ${index + 1}: price (£)`}
                  inputMode="decimal"
                  autoComplete="off"
                  hint="Before any reduction"
                  error={sizeErrors?.price?.message}
                  {...form.register(`sizes.${index}.price`)}
                />
                <Field
                  id={`size-${index}-reduction`}
                  label={`Size ${index + 1}: reduction (%)`}
                  inputMode="numeric"
                  autoComplete="off"
                  error={sizeErrors?.priceReduction?.message}
                  {...form.register(`sizes.${index}.priceReduction`)}
                />
                {size.stockNow === undefined ? (
                  <Field
                    id={`size-${index}-stock`}
                    label={`Size ${index + 1}: stock`}
                    inputMode="numeric"
                    autoComplete="off"
                    hint="Units in the shop to start with"
                    error={sizeErrors?.stock?.message}
                    {...form.register(`sizes.${index}.stock`)}
                  />
                ) : (
                  <p className="adm-field adm-stock-now">
                    <span>In stock: {size.stockNow}</span>
                    <span className="adm-hint">Stock changes are adjustments, made on the stock page.</span>
                  </p>
                )}
                <p className="adm-field adm-hint" aria-live="polite">
                  Sells at{' '}
                  {formatPence(
                    discountedPrice(
                      poundsToPence(typed?.price ?? '') ?? 0,
                      Math.min(100, Number(typed?.priceReduction) || 0),
                    ),
                  )}
                </p>
                <fieldset className="adm-parcel">
                  <legend>Size {index + 1}: parcel</legend>
                  <Field
                    id={`size-${index}-weight`}
                    label={`Size ${index + 1}: weight (g)`}
                    inputMode="numeric"
                    autoComplete="off"
                    hint="One unit, unpacked. Blank: labels cannot be made for it yet."
                    error={sizeErrors?.parcel?.weightGrams?.message}
                    {...form.register(`sizes.${index}.parcel.weightGrams`)}
                  />
                  <SelectField
                    id={`size-${index}-packaging`}
                    label={`Size ${index + 1}: sent in`}
                    error={sizeErrors?.parcel?.packagingId?.message}
                    hint={presetHint(props.packagings, typed?.parcel?.packagingId)}
                    {...form.register(`sizes.${index}.parcel.packagingId`)}
                  >
                    <option value="">Its own box</option>
                    {(props.packagings ?? []).map((packaging) => (
                      <option key={packaging.id} value={packaging.id}>
                        {packaging.name}, {sides(packaging)}
                      </option>
                    ))}
                  </SelectField>
                  {typed?.parcel?.packagingId ? null : (
                    <div className="adm-row">
                      {(
                        [
                          ['lengthMm', 'length'],
                          ['widthMm', 'width'],
                          ['heightMm', 'height'],
                        ] as const
                      ).map(([side, word]) => (
                        <Field
                          key={side}
                          id={`size-${index}-${side}`}
                          label={`Size ${index + 1}: ${word} (mm)`}
                          inputMode="numeric"
                          autoComplete="off"
                          error={sizeErrors?.parcel?.[side]?.message}
                          {...form.register(`sizes.${index}.parcel.${side}`)}
                        />
                      ))}
                    </div>
                  )}
                </fieldset>
                <div className="adm-row adm-field">
                  <button
                    type="button"
                    className="button button-secondary adm-small"
                    disabled={index === 0}
                    onClick={() => sizes.move(index, index - 1)}
                  >
                    Up<span className="visually-hidden"> {name}</span>
                  </button>
                  <button
                    type="button"
                    className="button button-secondary adm-small"
                    disabled={index === sizes.fields.length - 1}
                    onClick={() => sizes.move(index, index + 1)}
                  >
                    Down<span className="visually-hidden"> {name}</span>
                  </button>
                  <button
                    type="button"
                    className="button button-secondary adm-small"
                    disabled={size.ordered || sizes.fields.length === 1}
                    onClick={() => sizes.remove(index)}
                  >
                    Remove<span className="visually-hidden"> {name}</span>
                  </button>
                  {size.ordered && <span className="adm-hint">Ordered before, so it stays.</span>}
                </div>
              </li>
            );
          })}
        </ol>
        <button
          type="button"
          className="button button-secondary adm-small"
          disabled={sizes.fields.length >= MAX_SIZES}
          onClick={() => sizes.append(newSize())}
        >
          Add a size or style
        </button>
      </fieldset>

      <section className="adm-card" aria-labelledby="product-seo">
        <h2 id="product-seo">Search engines</h2>
        <Field
          id="product-seo-title"
          label="SEO title"
          autoComplete="off"
          hint="Blank: the title."
          error={errors.seoTitle?.message}
          {...form.register('seoTitle')}
        />
        <Field
          id="product-seo-keywords"
          label="SEO keywords"
          autoComplete="off"
          error={errors.seoKeywords?.message}
          {...form.register('seoKeywords')}
        />
        <TextAreaField
          id="product-seo-description"
          label="SEO description"
          rows={3}
          hint="Blank: the start of the description."
          error={errors.seoDescription?.message}
          {...form.register('seoDescription')}
        />
      </section>

      <button type="submit" className="button" disabled={isSubmitting}>
        {creating ? 'Add the product' : 'Save the product'}
      </button>
    </form>
  );
}
