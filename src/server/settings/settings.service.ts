import type { Kysely } from 'kysely';
import type { DocumentIssuer } from '../../contract/documents.ts';
import { shopSettingsSchema, type ShopSettings, type ShopSettingsInput } from '../../contract/admin/settings.ts';
import type { ShopIdentity } from '../../contract/shop.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { systemClock, type Clock } from '../cache/cached-loader.ts';
import { lowStockThresholdOf } from '../catalog/stock.admin-service.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { readSetting, settingOrCreate, writeSetting } from '../db/settings.repository.ts';
import { setDocumentIssuer } from '../documents/issue-documents.ts';
import type { Staff } from '../staff/staff.service.ts';

/**
 * The owner's settings (issue 37, DESIGN.md §11): one row of the `settings` table, written from the
 * environment by the first start only. The low-stock threshold keeps its own row (low_stock_threshold,
 * which the stock page and dashboard already read): this page reads and writes it with the rest.
 * Every instance re-reads the row at most every CACHE_MS, so a change reaches all within seconds.
 */
const SETTING = 'shop_settings';
const THRESHOLD_SETTING = 'low_stock_threshold';
export const SETTINGS_CACHE_MS = 3_000;

type StoredSettings = Omit<ShopSettings, 'lowStockThreshold'>;

/** The first start's values: the environment's (SHOP_*, LOW_STOCK_THRESHOLD). */
export function settingsFromConfig(
  config: Pick<Config, 'shop' | 'ordersEmail' | 'documentIssuer' | 'lowStockThreshold'>,
): ShopSettings {
  const { shop } = config;
  return {
    name: shop.name,
    phone: shop.phone,
    email: shop.email,
    address: shop.address,
    companyNumber: shop.companyNumber,
    vatNumber: config.documentIssuer.vatNumber,
    ordersEmail: config.ordersEmail,
    facebookUrl: shop.facebookUrl,
    instagramUrl: shop.instagramUrl,
    mapLatitude: shop.mapLatitude,
    mapLongitude: shop.mapLongitude,
    lowStockThreshold: config.lowStockThreshold,
  };
}

function issuerOf(settings: StoredSettings): DocumentIssuer {
  return {
    name: settings.name,
    // The address is one line, its parts separated by commas: a document prints one a line.
    address: settings.address
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== ''),
    vatNumber: settings.vatNumber,
    companyNumber: settings.companyNumber,
    email: settings.email,
  };
}

export async function startShopSettings(
  db: Kysely<Database>,
  config: Pick<Config, 'shop' | 'ordersEmail' | 'documentIssuer' | 'lowStockThreshold'>,
  options: { now?: Clock } = {},
) {
  const now = options.now ?? systemClock;
  const defaults = settingsFromConfig(config);
  const { lowStockThreshold: _threshold, ...seed } = defaults;
  const parse = (value: string): StoredSettings => ({ ...seed, ...(JSON.parse(value) as Partial<StoredSettings>) });
  // The first start writes the environment's values; every later one reads what is stored.
  let stored = parse(await settingOrCreate(db, SETTING, () => JSON.stringify(seed)));
  let readAt = now();
  // The documents issued from now on print the stored details (only a change is written).
  await setDocumentIssuer(db, issuerOf(stored));

  async function fresh(): Promise<StoredSettings> {
    const value = await readSetting(db, SETTING);
    stored = value === undefined ? seed : parse(value);
    readAt = now();
    return stored;
  }

  const listeners: Array<() => void> = [];
  return {
    /** Told after this instance's change (its page cache forgets the pages drawn with the old details). */
    onChange(listener: () => void) {
      listeners.push(listener);
    },
    /** The settings as stored now, with the threshold (the back office's page). */
    async read(): Promise<ShopSettings> {
      const [settings, lowStockThreshold] = await Promise.all([
        fresh(),
        lowStockThresholdOf(db, defaults.lowStockThreshold),
      ]);
      return { ...settings, lowStockThreshold };
    },
    /** The settings as this instance knows them: re-read when older than SETTINGS_CACHE_MS. */
    async current(): Promise<StoredSettings> {
      return now() - readAt >= SETTINGS_CACHE_MS ? fresh() : stored;
    },
    async identity(takes: ShopIdentity['takes']): Promise<ShopIdentity> {
      const s = await this.current();
      const { name, phone, email, address, companyNumber, facebookUrl, instagramUrl, mapLatitude, mapLongitude } = s;
      return {
        name,
        phone,
        email,
        address,
        companyNumber,
        facebookUrl,
        instagramUrl,
        mapLatitude,
        mapLongitude,
        takes,
      };
    },
    /** An owner's change: stored, audited (before and after) and the documents' issuer, in one transaction. */
    async update(input: ShopSettingsInput, staff: Staff): Promise<ShopSettings> {
      const next = shopSettingsSchema.parse(input);
      const { lowStockThreshold, ...rest } = next;
      await db.transaction().execute(async (trx) => {
        const before = await readSetting(trx, SETTING);
        const beforeThreshold = await lowStockThresholdOf(trx, defaults.lowStockThreshold);
        await writeSetting(trx, SETTING, JSON.stringify(rest));
        await writeSetting(trx, THRESHOLD_SETTING, String(lowStockThreshold));
        await setDocumentIssuer(trx, issuerOf(rest));
        await recordAudit(trx, {
          staff,
          action: 'settings.update',
          entityType: 'setting',
          entityId: SETTING,
          before: { ...(before === undefined ? seed : parse(before)), lowStockThreshold: beforeThreshold },
          after: next,
          at: new Date().toISOString(),
        });
      });
      stored = rest;
      readAt = now();
      for (const listener of listeners) listener();
      return next;
    },
  };
}
export type ShopSettingsService = Awaited<ReturnType<typeof startShopSettings>>;
