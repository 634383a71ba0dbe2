import type { Kysely, Selectable } from 'kysely';
import type { Packaging, PackagingInput } from '../../contract/admin/shipping.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { isUniqueViolation } from '../db/database.ts';
import type { Database, PackagingTable } from '../db/schema.ts';
import { NotFoundError, RefusedError } from '../errors.ts';
import type { Staff } from '../staff/staff.service.ts';
import {
  countSizesIn,
  deleteUnusedPackaging,
  findPackaging,
  insertPackaging,
  listPackagings,
  updatePackaging,
  type PackagingValues,
} from './packagings.repository.ts';

/**
 * Packaging presets (docs/back-office.md#shipping-labels): a tabla box, a harmonium crate. A size
 * sent in one takes its dimensions, and its empty weight is added to the goods' on the label.
 * Each change is audited in its own transaction.
 */
export function createPackagingsAdminService(db: Kysely<Database>, now: () => Date = () => new Date()) {
  const valuesOf = (input: Required<PackagingInput>): PackagingValues => ({
    name: input.name,
    length_mm: input.lengthMm,
    width_mm: input.widthMm,
    height_mm: input.heightMm,
    weight_grams: input.weightGrams,
  });
  const viewOf = (row: Selectable<PackagingTable>, sizes: number): Packaging => ({
    id: row.id,
    name: row.name,
    lengthMm: row.length_mm,
    widthMm: row.width_mm,
    heightMm: row.height_mm,
    weightGrams: row.weight_grams,
    sizes,
  });
  /** Names are one preset's whatever their case: "Tabla box" and "tabla box" would read as one. */
  async function named<T>(name: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error))
        throw new RefusedError(409, errorCodes.conflict, `There is already a packaging called "${name}"`, 'name');
      throw error;
    }
  }
  const audit = (trx: Kysely<Database>, staff: Staff, action: string, id: number, before: unknown, after: unknown) =>
    recordAudit(trx, {
      staff,
      action,
      entityType: 'packaging',
      entityId: id,
      before,
      after,
      at: now().toISOString(),
    });

  return {
    async list(): Promise<Packaging[]> {
      return (await listPackagings(db)).map(({ sizes, ...row }) => viewOf(row, Number(sizes ?? 0)));
    },

    create: (input: Required<PackagingInput>, staff: Staff): Promise<Packaging> =>
      named(input.name, () =>
        db.transaction().execute(async (trx) => {
          const id = await insertPackaging(trx, valuesOf(input));
          const view = viewOf({ id, ...valuesOf(input) }, 0);
          await audit(trx, staff, 'packaging.create', id, undefined, input);
          return view;
        }),
      ),

    update: (id: number, input: Required<PackagingInput>, staff: Staff): Promise<Packaging> =>
      named(input.name, () =>
        db.transaction().execute(async (trx) => {
          const before = await findPackaging(trx, id);
          if (!before || !(await updatePackaging(trx, id, valuesOf(input))))
            throw new NotFoundError(`There is no packaging ${id}`);
          await audit(trx, staff, 'packaging.update', id, viewOf(before, 0), input);
          return viewOf({ id, ...valuesOf(input) }, await countSizesIn(trx, id));
        }),
      ),

    remove: (id: number, staff: Staff): Promise<void> =>
      db.transaction().execute(async (trx) => {
        const before = await findPackaging(trx, id);
        if (!before) throw new NotFoundError(`There is no packaging ${id}`);
        if (!(await deleteUnusedPackaging(trx, id))) {
          const sizes = await countSizesIn(trx, id);
          throw new RefusedError(
            409,
            errorCodes.conflict,
            `${sizes} ${sizes === 1 ? 'size is' : 'sizes are'} sent in "${before.name}": choose another packaging for ${sizes === 1 ? 'it' : 'them'} first.`,
          );
        }
        await audit(trx, staff, 'packaging.delete', id, viewOf(before, 0), undefined);
      }),
  };
}
export type PackagingsAdminService = ReturnType<typeof createPackagingsAdminService>;
