import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrandView, ProductTypeView } from '../../contract/admin/catalogue.ts';
import type { ProductType } from '../../contract/catalog.ts';
import { adminCalls } from '../../../test/helpers/catalogue-admin.ts';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * Product types and brands in the back office (docs/back-office.md#catalogue): add, rename,
 * reorder, move in the tree; the storefront's lists (which its menu, search filters and footer
 * read) and search follow; deleting one in use is refused, saying by how many products.
 */
describe('back office types and brands', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminCalls>;
  let staffEmail: string;
  let make: ReturnType<typeof catalogFactory>;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
    make = catalogFactory(t.db);
    const member = await staffMember(t, 'staff');
    admin = adminCalls(t, member.cookie);
    staffEmail = member.email;
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const storefrontTree = async () => (await get('/api/product-types')).json() as ProductType[];
  const search = async (title: string) =>
    (
      (await t.app.inject({ method: 'POST', url: '/api/search', payload: { title } })).json().results as Array<{
        id: number;
      }>
    ).map((p) => p.id);
  const auditOf = async (entityType: string, id: number) =>
    (
      (await admin('GET', `/audit?entityType=${entityType}`)).json().entries as Array<{
        entityId: string;
        action: string;
        staffEmail: string;
        before: unknown;
        after: unknown;
      }>
    ).filter((entry) => entry.entityId === String(id));

  it('adds types at the top and inside another, renames, reorders and moves them; the storefront tree follows', async () => {
    const stamp = Date.now().toString(36);
    const added = async (name: string, parentId: number) => {
      const answer = await admin('POST', '/product-types', { name, parentId });
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json() as ProductTypeView[]).find((type) => type.name === name)!;
    };
    const top = await added(`Wind ${stamp}`, -1);
    const flutes = await added(`Flutes ${stamp}`, top.id);
    const shehnai = await added(`Shehnai ${stamp}`, top.id);
    const node = async () => (await storefrontTree()).find((type) => type.id === top.id)!;
    expect((await node()).childTypes.map((c) => c.name)).toEqual([`Flutes ${stamp}`, `Shehnai ${stamp}`]);

    await admin('POST', `/product-types/${shehnai.id}/reorder`, { direction: 'up' });
    expect((await node()).childTypes.map((c) => c.id)).toEqual([shehnai.id, flutes.id]);
    // At the end of the list it stays where it is.
    await admin('POST', `/product-types/${shehnai.id}/reorder`, { direction: 'up' });
    expect((await node()).childTypes.map((c) => c.id)).toEqual([shehnai.id, flutes.id]);

    await admin('PUT', `/product-types/${flutes.id}`, { name: `Bansuri ${stamp}`, parentId: top.id });
    expect((await node()).childTypes.map((c) => c.name)).toEqual([`Shehnai ${stamp}`, `Bansuri ${stamp}`]);

    const other = await added(`Reeds ${stamp}`, -1);
    await admin('PUT', `/product-types/${shehnai.id}`, { name: `Shehnai ${stamp}`, parentId: other.id });
    const tree = await storefrontTree();
    expect(tree.find((type) => type.id === other.id)?.childTypes.map((c) => c.id)).toEqual([shehnai.id]);
    expect(tree.find((type) => type.id === top.id)?.childTypes.map((c) => c.id)).toEqual([flutes.id]);

    const entries = await auditOf('product_type', shehnai.id);
    expect(entries.map((e) => e.action)).toEqual([
      'product_type.update',
      'product_type.reorder',
      'product_type.create',
    ]);
    expect(entries[0]).toMatchObject({ staffEmail, before: { parentId: top.id }, after: { parentId: other.id } });
  });

  it('refuses to put a type inside itself or inside one of its own, and names bad fields', async () => {
    const parent = await make.type();
    const child = await make.type({ parentId: parent.id });
    for (const parentId of [parent.id, child.id]) {
      const answer = await admin('PUT', `/product-types/${parent.id}`, { name: parent.name, parentId });
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error.fields).toEqual([
        { field: 'parentId', message: 'A type cannot go inside itself or one of the types inside it' },
      ]);
    }
    const nowhere = await admin('POST', '/product-types', { name: 'Lost', parentId: 999_999_999 });
    expect(nowhere.json().error.fields).toEqual([
      { field: 'parentId', message: 'There is no such product type to put it in' },
    ]);
    const blank = await admin('POST', '/product-types', { name: ' ', parentId: 0 });
    expect(blank.statusCode).toBe(400);
    expect(new Set(blank.json().error.fields.map((f: { field: string }) => f.field))).toEqual(
      new Set(['name', 'parentId']),
    );
    const twin = await admin('POST', '/product-types', { name: child.name.toUpperCase(), parentId: parent.id });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().error.fields).toEqual([{ field: 'name', message: `There is a "${child.name}" there already` }]);
    expect((await admin('PUT', '/product-types/999999999', { name: 'X', parentId: -1 })).statusCode).toBe(404);

    // The products CSV writes a type as its place in the tree, "Parent > Child": a type named like a
    // place (an outside attack made "String Instruments > Sitars" at the top) would take over the
    // real one's products at the owner's next import.
    for (const name of [`${parent.name} > ${child.name}`, `${parent.name} › ${child.name}`]) {
      const lookalike = await admin('POST', '/product-types', { name, parentId: -1 });
      expect(lookalike.statusCode).toBe(400);
      expect(lookalike.json().error.fields).toEqual([
        { field: 'name', message: 'A name may not contain > or ›, which mark a type’s place in the tree' },
      ]);
      expect((await admin('PUT', `/product-types/${child.id}`, { name, parentId: parent.id })).statusCode).toBe(400);
    }
  });

  it('refuses to delete a type its products or child types use, saying how many; deletes one nothing uses', async () => {
    const parent = await make.type({ name: 'Frame drums' });
    const child = await make.type({ name: 'Dafs', parentId: parent.id });
    const brand = await make.brand();
    for (const status of ['published', 'draft', 'archived'] as const) {
      await make.product({ typeId: child.id, brandId: brand.id, status });
    }
    const used = await admin('DELETE', `/product-types/${child.id}`);
    expect(used.statusCode).toBe(409);
    expect(used.json().error).toEqual({
      code: 'CONFLICT',
      message:
        '"Dafs" is the type of 3 products (drafts and archived ones count too). Move them to another type first.',
    });
    const withChild = await admin('DELETE', `/product-types/${parent.id}`);
    expect(withChild.statusCode).toBe(409);
    expect(withChild.json().error.message).toBe('"Frame drums" has 1 type inside it. Move or delete them first.');

    const empty = await make.type({ name: 'Empty shelf' });
    const deleted = await admin('DELETE', `/product-types/${empty.id}`);
    expect(deleted.statusCode).toBe(200);
    expect((deleted.json() as ProductTypeView[]).some((type) => type.id === empty.id)).toBe(false);
    expect((await storefrontTree()).some((type) => type.id === empty.id)).toBe(false);
    expect(await auditOf('product_type', empty.id)).toEqual([
      expect.objectContaining({ action: 'product_type.delete', before: { name: 'Empty shelf', parentId: -1 } }),
    ]);
  });

  it('keeps search in step when a type is renamed or moved: its products are found by the new names', async () => {
    const stamp = `ty${Date.now().toString(36)}`;
    const parent = await make.type({ name: `Oldparent${stamp}` });
    const child = await make.type({ name: `Oldchild${stamp}`, parentId: parent.id });
    const brand = await make.brand();
    const product = await make.product({ typeId: child.id, brandId: brand.id, searchTags: `own${stamp}` });
    await admin('PUT', `/product-types/${parent.id}`, { name: `Newparent${stamp}`, parentId: -1 });
    expect(await search(`newparent${stamp}`)).toEqual([product.id]);
    expect(await search(`own${stamp} oldchild${stamp}`)).toEqual([product.id]);
    const elsewhere = await make.type({ name: `Elsewhere${stamp}` });
    await admin('PUT', `/product-types/${child.id}`, { name: `Newchild${stamp}`, parentId: elsewhere.id });
    expect(await search(`newchild${stamp} elsewhere${stamp}`)).toEqual([product.id]);
    expect(await search(`newparent${stamp}`)).toEqual([]);
    expect(await search(`oldchild${stamp}`)).toEqual([]);
  });

  it('adds, renames and reorders brands; the storefront list and search follow; a brand in use is not deleted', async () => {
    const stamp = `br${Date.now().toString(36)}`;
    const list = async () => (await admin('GET', '/brands')).json() as BrandView[];
    const first = (await admin('POST', '/brands', { name: `Aaa ${stamp}` })).json() as BrandView[];
    const a = first.find((b) => b.name === `Aaa ${stamp}`)!;
    const b = ((await admin('POST', '/brands', { name: `Bbb ${stamp}` })).json() as BrandView[]).find(
      (brand) => brand.name === `Bbb ${stamp}`,
    )!;
    const storefront = async () => ((await get('/api/brands')).json() as Array<{ id: number }>).map((x) => x.id);
    const before = await storefront();
    expect(before.indexOf(a.id)).toBeLessThan(before.indexOf(b.id));
    await admin('POST', `/brands/${b.id}/reorder`, { direction: 'up' });
    const after = await storefront();
    expect(after.indexOf(b.id)).toBe(after.indexOf(a.id) - 1);
    expect((await list()).map((x) => x.id)).toEqual(after);

    const type = await make.type();
    const product = await make.product({ typeId: type.id, brandId: a.id });
    await admin('PUT', `/brands/${a.id}`, { name: `Renamed${stamp}` });
    expect((await get('/api/brands')).json()).toContainEqual({ id: a.id, name: `Renamed${stamp}` });
    expect(await search(`renamed${stamp}`)).toEqual([product.id]);

    const twin = await admin('POST', '/brands', { name: `renamed${stamp}` });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().error.fields).toEqual([
      { field: 'name', message: `There is a "Renamed${stamp}" there already` },
    ]);
    expect(
      (await admin('POST', '/brands', { name: '' })).json().error.fields.map((f: { field: string }) => f.field),
    ).toEqual(['name']);

    const used = await admin('DELETE', `/brands/${a.id}`);
    expect(used.statusCode).toBe(409);
    expect(used.json().error.message).toBe(
      `"Renamed${stamp}" is the brand of 1 product (drafts and archived ones count too). Move them to another brand first.`,
    );
    expect((await admin('DELETE', `/brands/${b.id}`)).statusCode).toBe(200);
    expect(await storefront()).not.toContain(b.id);
    expect((await auditOf('brand', a.id)).map((e) => [e.action, e.before, e.after])).toEqual([
      ['brand.update', { name: `Aaa ${stamp}` }, { name: `Renamed${stamp}` }],
      ['brand.create', null, { name: `Aaa ${stamp}` }],
    ]);
    expect((await auditOf('brand', b.id)).map((e) => e.action)).toEqual([
      'brand.delete',
      'brand.reorder',
      'brand.create',
    ]);
  });
});
