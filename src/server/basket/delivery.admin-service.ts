import type { Kysely, Selectable } from 'kysely';
import type { z } from 'zod';
import type {
  countryInputSchema,
  DeliveryMethod,
  deliveryMethodInputSchema,
  DeliveryMethodOrderInput,
  DeliverySetup,
  MethodLabels,
} from '../../contract/admin/delivery.ts';
import { methodLabelsSchema } from '../../contract/admin/delivery.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import type { Database, DeliveryMethodTable } from '../db/schema.ts';
import { BadRequestError, NotFoundError, RefusedError } from '../errors.ts';
import type { Staff } from '../staff/staff.service.ts';
import { forgetReferenceData } from './basket.service.ts';
import {
  countryUses,
  deleteCountry,
  findCountry,
  findCountryByIso,
  findMethod,
  insertCountry,
  insertMethod,
  listCountries,
  listMethods,
  methodsOfCountry,
  setMethodOrder,
  updateMethod,
  type DeliveryMethodValues,
} from './delivery.admin-repository.ts';

/**
 * Delivery in the back office (docs/back-office.md#delivery): the countries served, and each
 * country's methods with their rates and the items totals they apply between, as
 * GET /api/delivery-methods and verify-basket read them. Each change is one transaction with its
 * audit entry; this instance then forgets the countries and methods it kept, so its next checkout
 * shows the change (other instances within 10 s).
 */

type DeliveryMethodFields = z.output<typeof deliveryMethodInputSchema>;
type CountryFields = z.output<typeof countryInputSchema>;

function refuse(message: string): never {
  throw new RefusedError(409, errorCodes.conflict, message);
}

/** A method's carrier mapping, when it has one the shop still knows. */
function labelsOf(row: Selectable<DeliveryMethodTable>): MethodLabels | null {
  const parsed = methodLabelsSchema.safeParse({ service: row.carrier_service, packageFormat: row.package_format });
  return parsed.success ? parsed.data : null;
}

function methodView(row: Selectable<DeliveryMethodTable>): DeliveryMethod {
  return {
    id: row.id,
    countryId: row.country_id,
    name: row.name,
    rate: row.rate,
    minItemsTotal: row.min_items_total,
    maxItemsTotal: row.max_items_total,
    sortOrder: row.sort_order,
    active: row.active === 1,
    kind: row.kind,
    transitDays: row.transit_days,
    labels: labelsOf(row),
  };
}

function valuesOf(fields: DeliveryMethodFields): DeliveryMethodValues {
  return {
    country_id: fields.countryId,
    name: fields.name,
    rate: fields.rate,
    min_items_total: fields.minItemsTotal,
    max_items_total: fields.maxItemsTotal,
    active: fields.active ? 1 : 0,
    kind: fields.kind,
    // Left out, a new method takes the column's default and an edited one keeps its own.
    ...(fields.transitDays === undefined ? {} : { transit_days: fields.transitDays }),
    ...(fields.labels === undefined
      ? {}
      : { carrier_service: fields.labels?.service ?? null, package_format: fields.labels?.packageFormat ?? null }),
  };
}

function audited(method: DeliveryMethod) {
  const { id: _id, sortOrder: _sortOrder, ...fields } = method;
  return fields;
}

export function createDeliveryAdminService(
  db: Kysely<Database>,
  options: {
    now?: () => Date;
    /** Told after each change, for what prices baskets elsewhere in this instance (the checkout thread). */
    onChange?: () => void;
  },
) {
  const now = () => (options.now ?? (() => new Date()))().toISOString();

  /** One staff change in one transaction; afterwards this instance reads countries and methods afresh. */
  async function change<T>(work: (trx: Kysely<Database>, at: string) => Promise<T>): Promise<T> {
    try {
      return await db.transaction().execute((trx) => work(trx, now()));
    } finally {
      forgetReferenceData(db);
      options.onChange?.();
    }
  }

  async function methodOrThrow(trx: Kysely<Database>, id: number) {
    const row = await findMethod(trx, id);
    if (!row) throw new NotFoundError(`There is no delivery method ${id}`);
    return row;
  }

  async function countryOrBadRequest(trx: Kysely<Database>, countryId: number) {
    if (!(await findCountry(trx, countryId))) {
      throw new BadRequestError('Please choose a country the shop serves', 'countryId');
    }
  }

  async function setup(): Promise<DeliverySetup> {
    const [countries, methods] = await Promise.all([listCountries(db), listMethods(db)]);
    return {
      countries: countries.map((c) => ({ id: c.id, name: c.name, isoCode: c.iso_code })),
      methods: methods.map(methodView),
    };
  }

  return {
    setup,

    createMethod(fields: DeliveryMethodFields, staff: Staff): Promise<DeliveryMethod> {
      return change(async (trx, at) => {
        await countryOrBadRequest(trx, fields.countryId);
        const id = await insertMethod(trx, valuesOf(fields));
        const created = methodView(await methodOrThrow(trx, id));
        await recordAudit(trx, {
          staff,
          action: 'delivery.create',
          entityType: 'delivery_method',
          entityId: id,
          after: audited(created),
          at,
        });
        return created;
      });
    },

    /** Edits a method, its rate and bounds included; `active: false` takes it off the checkout. */
    updateMethod(id: number, fields: DeliveryMethodFields, staff: Staff): Promise<DeliveryMethod> {
      return change(async (trx, at) => {
        const before = methodView(await methodOrThrow(trx, id));
        await countryOrBadRequest(trx, fields.countryId);
        await updateMethod(trx, id, valuesOf(fields));
        const after = methodView(await methodOrThrow(trx, id));
        await recordAudit(trx, {
          staff,
          action: after.active || !before.active ? 'delivery.update' : 'delivery.deactivate',
          entityType: 'delivery_method',
          entityId: id,
          before: audited(before),
          after: audited(after),
          at,
        });
        return after;
      });
    },

    /** A country's methods in a new order; the list must name each of them once. */
    reorder(input: DeliveryMethodOrderInput, staff: Staff): Promise<DeliverySetup['methods']> {
      return change(async (trx, at) => {
        const methods = await methodsOfCountry(trx, input.countryId);
        const current = methods.map((m) => m.id);
        const asked = [...input.methodIds];
        if (asked.length !== current.length || [...asked].sort().join() !== [...current].sort().join()) {
          throw new BadRequestError("Please list each of the country's delivery methods once", 'methodIds');
        }
        for (const [position, id] of asked.entries()) await setMethodOrder(trx, id, position);
        await recordAudit(trx, {
          staff,
          action: 'delivery.reorder',
          entityType: 'country',
          entityId: input.countryId,
          before: { methodIds: current },
          after: { methodIds: asked },
          at,
        });
        return (await methodsOfCountry(trx, input.countryId)).map(methodView);
      });
    },

    addCountry(fields: CountryFields, staff: Staff): Promise<DeliverySetup['countries'][number]> {
      return change(async (trx, at) => {
        const taken = await findCountryByIso(trx, fields.isoCode);
        if (taken) refuse(`${taken.name} already has the ISO code ${fields.isoCode}.`);
        const id = await insertCountry(trx, fields);
        const country = { id, name: fields.name, isoCode: fields.isoCode };
        await recordAudit(trx, {
          staff,
          action: 'country.add',
          entityType: 'country',
          entityId: id,
          after: country,
          at,
        });
        return country;
      });
    },

    /** Refused while a delivery method or an unpaid order still names the country; answers what is left. */
    async removeCountry(id: number, staff: Staff): Promise<DeliverySetup> {
      await change(async (trx, at) => {
        const country = await findCountry(trx, id);
        if (!country) throw new NotFoundError(`There is no country ${id}`);
        const uses = await countryUses(trx, id);
        if (uses.methods > 0) {
          refuse(
            `${country.name} still has ${uses.methods} delivery method${uses.methods === 1 ? '' : 's'}; remove or move ${uses.methods === 1 ? 'it' : 'them'} to another country first.`,
          );
        }
        if (uses.unpaidOrders > 0) {
          refuse(
            `${uses.unpaidOrders} unpaid order${uses.unpaidOrders === 1 ? '' : 's'} still ${uses.unpaidOrders === 1 ? 'goes' : 'go'} to or from ${country.name}; try again once ${uses.unpaidOrders === 1 ? 'it is' : 'they are'} paid or expired.`,
          );
        }
        await deleteCountry(trx, id);
        await recordAudit(trx, {
          staff,
          action: 'country.remove',
          entityType: 'country',
          entityId: id,
          before: { name: country.name, isoCode: country.iso_code },
          at,
        });
      });
      return setup();
    },
  };
}

export type DeliveryAdminService = ReturnType<typeof createDeliveryAdminService>;
