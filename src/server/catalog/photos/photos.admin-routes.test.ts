import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { ProductPhotos } from '../../../contract/admin/photos.ts';
import type { Product, StockDetail } from '../../../contract/catalog.ts';
import { catalogFactory } from '../../../../test/helpers/catalog-factory.ts';
import { makePicture, multipart, type FilePart } from '../../../../test/helpers/photos.ts';
import { staffMember } from '../../../../test/helpers/staff.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { photoLimits } from '../../../contract/photos.ts';
import { BadRequestError, RefusedError } from '../../errors.ts';
import type { Staff } from '../../staff/staff.service.ts';
import { createConversionLimiter } from './conversion-limiter.ts';
import { createDatabasePhotoStore } from './photo-store.ts';
import { createPhotosAdminService } from './photos.admin-service.ts';

/**
 * Product photos in the back office (docs/back-office.md#product-photos): uploads checked from their
 * bytes, converted to AVIF and WebP at the right widths without metadata, reordered, deleted, the
 * main one chosen, every change audited, and every photo served by any instance with a year's cache.
 */
describe('product photos', () => {
  let t: TestApp;
  let cookie: string;
  let staffEmail: string;
  let make: ReturnType<typeof catalogFactory>;
  let typeId: number;
  let brandId: number;
  let webRoot: string;

  beforeAll(async () => {
    // A stand-in for the built app, whose pages the server writes the product's head into.
    webRoot = `${mkdtempSync(join(tmpdir(), 'shop-web-'))}/`;
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    t = await createTestApp({ webRoot });
    make = catalogFactory(t.db);
    typeId = (await make.type()).id;
    brandId = (await make.brand()).id;
    const staff = await staffMember(t, 'staff');
    cookie = staff.cookie;
    staffEmail = staff.email;
  });
  afterAll(async () => {
    await t.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  const newProduct = () => make.product({ typeId, brandId, images: ['/images/products/sitar-2.svg'] });
  const upload = (productId: number, files: FilePart[]) => {
    const body = multipart(files);
    return t.app.inject({
      method: 'POST',
      url: `/api/admin/products/${productId}/photos`,
      headers: { ...body.headers, cookie },
      payload: body.payload,
    });
  };
  const list = async (productId: number) =>
    (
      await t.app.inject({ method: 'GET', url: `/api/admin/products/${productId}/photos`, headers: { cookie } })
    ).json<ProductPhotos>();
  const product = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: `/api/products/${id}` })).json<Product>();
  const auditActions = async (productId: number) =>
    (
      await t.db.kysely
        .selectFrom('audit_log')
        .select(['action', 'staff_email', 'before', 'after'])
        .where('entity_type', '=', 'product')
        .where('entity_id', '=', String(productId))
        .orderBy('id')
        .execute()
    ).map((row) => ({ ...row, before: JSON.parse(row.before ?? 'null'), after: JSON.parse(row.after ?? 'null') }));
  const widthsOf = (photos: ProductPhotos, index: number, format: 'avif' | 'webp') =>
    photos.photos[index]!.variants.filter((v) => v.format === format).map((v) => [v.width, v.height]);

  it('takes a JPEG, a PNG and a WebP, and keeps each as AVIF and WebP at widths up to its own', async () => {
    const { id } = await newProduct();
    const answer = await upload(id, [
      {
        filename: 'front.jpg',
        contentType: 'image/jpeg',
        bytes: await makePicture('jpeg', 2000, 1500, { exif: true }),
      },
      { filename: 'side.png', contentType: 'image/png', bytes: await makePicture('png', 800, 600) },
      { filename: 'detail.webp', contentType: 'image/webp', bytes: await makePicture('webp', 300, 200) },
    ]);
    expect(answer.statusCode, answer.body).toBe(201);
    const photos = answer.json<ProductPhotos>();
    expect(photos.photos.map((p) => [p.sourceFormat, p.width, p.height, p.main, p.position])).toEqual([
      ['jpeg', 2000, 1500, true, 1],
      ['png', 800, 600, false, 2],
      ['webp', 300, 200, false, 3],
    ]);
    for (const format of ['avif', 'webp'] as const) {
      expect(widthsOf(photos, 0, format)).toEqual([
        [320, 240],
        [640, 480],
        [1024, 768],
        [1600, 1200],
      ]);
      // Never upscaled: the picture's own width is the largest.
      expect(widthsOf(photos, 1, format)).toEqual([
        [320, 240],
        [640, 480],
        [800, 600],
      ]);
      expect(widthsOf(photos, 2, format)).toEqual([[300, 200]]);
    }
    // Each variant is what it says, at its width, with no metadata left.
    for (const variant of photos.photos[0]!.variants) {
      const served = await t.app.inject({ method: 'GET', url: variant.url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(`image/${variant.format}`);
      const metadata = await sharp(served.rawPayload).metadata();
      expect({ format: metadata.format, width: metadata.width, exif: metadata.exif, icc: metadata.icc }).toEqual({
        format: variant.format === 'avif' ? 'heif' : 'webp',
        width: variant.width,
        exif: undefined,
        icc: undefined,
      });
      expect(served.rawPayload.length).toBe(variant.bytes);
    }
    const audit = await auditActions(id);
    expect(audit.map((a) => [a.action, a.staff_email, a.after.format])).toEqual([
      ['product.photo.add', staffEmail, 'jpeg'],
      ['product.photo.add', staffEmail, 'png'],
      ['product.photo.add', staffEmail, 'webp'],
    ]);
  });

  it('draws a photo upright from its EXIF orientation', async () => {
    const { id } = await newProduct();
    const answer = await upload(id, [
      {
        filename: 'turned.jpg',
        contentType: 'image/jpeg',
        bytes: await makePicture('jpeg', 600, 400, { orientation: 6 }),
      },
    ]);
    expect(answer.statusCode, answer.body).toBe(201);
    const [photo] = answer.json<ProductPhotos>().photos;
    expect([photo!.width, photo!.height]).toEqual([400, 600]);
    expect(photo!.variants.filter((v) => v.format === 'webp').map((v) => [v.width, v.height])).toEqual([
      [320, 480],
      [400, 600],
    ]);
  });

  it('judges the type by the bytes: a PNG named .jpg is taken as the PNG it is', async () => {
    const { id } = await newProduct();
    const answer = await upload(id, [
      { filename: 'photo.jpg', contentType: 'image/jpeg', bytes: await makePicture('png', 400, 400) },
    ]);
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json<ProductPhotos>().photos[0]!.sourceFormat).toBe('png');
  });

  it('keeps nothing of what is stuck on after a whole JPEG: only pictures re-encoded from its pixels are served', async () => {
    const { id } = await newProduct();
    const payload = '<html><script>alert(1)</script></html><?php system($_GET[1]); ?>';
    const bytes = Buffer.concat([await makePicture('jpeg', 400, 400), Buffer.from(payload)]);
    const answer = await upload(id, [{ filename: 'poly.jpg', contentType: 'image/jpeg', bytes }]);
    expect(answer.statusCode, answer.body).toBe(201);
    for (const variant of answer.json<ProductPhotos>().photos[0]!.variants) {
      const served = await t.app.inject({ method: 'GET', url: variant.url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(`image/${variant.format}`);
      expect(served.rawPayload.includes('<script')).toBe(false);
      expect(served.rawPayload.includes('<?php')).toBe(false);
    }
  });

  it.each([
    ['a PHP file named .jpg', 'shell.jpg', 'image/jpeg', Buffer.from('<?php system($_GET["c"]); ?>\n')],
    [
      'a PHP file behind a JPEG signature',
      'polyglot.jpg',
      'image/jpeg',
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<?php system($_GET["c"]); ?>'.repeat(20))]),
    ],
    [
      'an SVG that says it is WebP',
      'drawing.webp',
      'image/webp',
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" height="200" fill="red"/><script>alert(1)</script></svg>',
      ),
    ],
    [
      'an HTML page that says it is PNG',
      'page.png',
      'image/png',
      Buffer.from('<!doctype html><script>alert(1)</script>'),
    ],
  ])('refuses %s with a 400 naming the file, and keeps nothing', async (_what, filename, contentType, bytes) => {
    const { id } = await newProduct();
    const answer = await upload(id, [{ filename, contentType, bytes }]);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', fields: [{ field: 'file' }] },
    });
    expect(answer.json().error.message).toMatch(
      new RegExp(`^${filename.replace('.', '\\.')}: this (is not a JPEG, PNG or WebP picture|file)`),
    );
    expect((await list(id)).photos).toEqual([]);
    expect(await auditActions(id)).toEqual([]);
  });

  it('refuses a GIF that says it is a PNG, even among good files, and keeps none of them', async () => {
    const { id } = await newProduct();
    const answer = await upload(id, [
      { filename: 'good.jpg', contentType: 'image/jpeg', bytes: await makePicture('jpeg', 400, 300) },
      { filename: 'moving.png', contentType: 'image/png', bytes: await makePicture('gif', 100, 100) },
    ]);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.message).toBe(
      'moving.png: this is not a JPEG, PNG or WebP picture (whatever its name says).',
    );
    expect((await list(id)).photos).toEqual([]);
  });

  it('refuses a file over 15 MB with a 413', async () => {
    const { id } = await newProduct();
    const jpeg = await makePicture('jpeg', 100, 100);
    const huge = Buffer.concat([jpeg, Buffer.alloc(15 * 1024 * 1024 + 1 - jpeg.length, 0)]);
    const answer = await upload(id, [{ filename: 'huge.jpg', contentType: 'image/jpeg', bytes: huge }]);
    expect(answer.statusCode).toBe(413);
    expect(answer.json()).toEqual({
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'huge.jpg: a photo may be at most 15 MB.' },
    });
    expect((await list(id)).photos).toEqual([]);
  });

  it('refuses more than 10 files at once, and more than 20 photos on a product', async () => {
    const { id } = await newProduct();
    const small = await makePicture('jpeg', 64, 48);
    const files = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ filename: `p${i}.jpg`, contentType: 'image/jpeg', bytes: small }));
    const eleven = await upload(id, files(11));
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json().error.message).toBe('Please send at most 10 photos at a time.');
    expect((await list(id)).photos).toEqual([]);

    expect((await upload(id, files(10))).statusCode).toBe(201);
    expect((await upload(id, files(10))).statusCode).toBe(201);
    const more = await upload(id, files(1));
    expect(more.statusCode).toBe(409);
    expect(more.json().error.message).toBe('A product has at most 20 photos. Please delete one before adding another.');
    expect((await list(id)).photos).toHaveLength(20);
  });

  it('refuses a body that is not multipart, an empty upload and an unknown product', async () => {
    const { id } = await newProduct();
    const json = await t.app.inject({
      method: 'POST',
      url: `/api/admin/products/${id}/photos`,
      headers: { cookie },
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    const empty = await upload(id, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe('Please choose a photo to upload.');
    const unknown = await upload(99_999_999, [
      { filename: 'a.jpg', contentType: 'image/jpeg', bytes: await makePicture('jpeg', 64, 64) },
    ]);
    expect(unknown.statusCode).toBe(404);
  });

  it('answers a multipart body without its boundary, or cut short, with a 400 naming the fault', async () => {
    const { id } = await newProduct();
    const post = (contentType: string, payload: string | Buffer) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/products/${id}/photos`,
        headers: { 'content-type': contentType, cookie },
        payload,
      });
    const noBoundary = await post('multipart/form-data', 'x');
    expect(noBoundary.statusCode, noBoundary.body).toBe(400);
    expect(noBoundary.json().error.message).toMatch(/boundary/i);
    const body = multipart([
      { filename: 'a.jpg', contentType: 'image/jpeg', bytes: await makePicture('jpeg', 64, 64) },
    ]);
    const cut = await post(body.headers['content-type']!, body.payload.subarray(0, body.payload.length - 40));
    expect(cut.statusCode, cut.body).toBe(400);
    expect(cut.json().error.message).toMatch(/cut short|end/i);
  });

  it('takes multipart on its upload route only: elsewhere the API still refuses it', async () => {
    const body = multipart([
      { filename: 'a.jpg', contentType: 'image/jpeg', bytes: await makePicture('jpeg', 64, 64) },
    ]);
    for (const url of ['/api/contact', '/api/admin/customers/1/erase', '/api/search']) {
      const answer = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...body.headers, cookie },
        payload: body.payload,
      });
      expect({ url, status: answer.statusCode }).toEqual({ url, status: 415 });
    }
  });

  it('reorders, chooses the main photo and deletes, each audited; the storefront follows', async () => {
    const { id, stockIds } = await newProduct();
    // Before any upload the product shows its drawing.
    expect((await product(id)).images).toEqual([{ imageUrl: '/images/products/sitar-2.svg' }]);
    const uploaded = await upload(id, [
      { filename: 'a.jpg', contentType: 'image/jpeg', bytes: await makePicture('jpeg', 700, 700) },
      { filename: 'b.png', contentType: 'image/png', bytes: await makePicture('png', 500, 400) },
      { filename: 'c.webp', contentType: 'image/webp', bytes: await makePicture('webp', 1200, 900) },
    ]);
    const [a, b, c] = uploaded.json<ProductPhotos>().photos.map((p) => p.id) as [number, number, number];
    const order = (photos: ProductPhotos) => photos.photos.map((p) => p.id);
    const call = (method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url: `/api/admin/products/${id}/photos${url}`, headers: { cookie }, payload });

    const reordered = await call('PUT', '/order', { photoIds: [c, a, b] });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(order(reordered.json())).toEqual([c, a, b]);
    expect(reordered.json<ProductPhotos>().photos.map((p) => p.main)).toEqual([true, false, false]);

    // An order that leaves one out, or names a stranger, says the photos changed.
    expect((await call('PUT', '/order', { photoIds: [c, a] })).statusCode).toBe(409);
    expect((await call('PUT', '/order', { photoIds: [c, a, b, 999_999] })).statusCode).toBe(409);
    expect((await call('PUT', '/order', { photoIds: [c, c, a] })).statusCode).toBe(400);

    const main = await call('POST', `/${b}/main`);
    expect(order(main.json())).toEqual([b, c, a]);

    // The shop shows the photos, main first, with their sources; the basket line the main one's smallest.
    const shown = await product(id);
    expect(shown.images.map((image) => image.photo?.width)).toEqual([500, 1200, 700]);
    expect(shown.defaultImageUrl).toBe(shown.images[0]!.imageUrl);
    expect(shown.images[0]).toEqual({
      imageUrl: expect.stringMatching(/^\/images\/photos\/[0-9a-f]{32}-500\.webp$/),
      photo: { key: expect.any(String), width: 500, height: 400, widths: [320, 500], formats: ['avif', 'webp'] },
    });
    const [line] = (await t.app.inject({ method: 'GET', url: `/api/product-stock?id=${stockIds[0]}` })).json<
      StockDetail[]
    >();
    expect(line!.imageUrl).toBe(`/images/photos/${shown.images[0]!.photo!.key}-320.webp`);

    const deleted = await call('DELETE', `/${b}`);
    expect(deleted.statusCode).toBe(200);
    expect(order(deleted.json())).toEqual([c, a]);
    expect(deleted.json<ProductPhotos>().photos[0]!.main).toBe(true);
    expect((await call('DELETE', `/${b}`)).statusCode).toBe(404);
    expect((await call('POST', `/${b}/main`)).statusCode).toBe(404);
    // The deleted photo is no longer served.
    expect((await t.app.inject({ method: 'GET', url: shown.images[0]!.imageUrl })).statusCode).toBe(404);

    for (const photoId of [c, a]) expect((await call('DELETE', `/${photoId}`)).statusCode).toBe(200);
    // With every photo gone, the drawing is back.
    expect((await product(id)).images).toEqual([{ imageUrl: '/images/products/sitar-2.svg' }]);

    const audit = await auditActions(id);
    expect(audit.slice(3).map((entry) => [entry.action, entry.before, entry.after])).toEqual([
      ['product.photo.reorder', { order: [a, b, c] }, { order: [c, a, b] }],
      ['product.photo.main', { order: [c, a, b] }, { order: [b, c, a] }],
      ['product.photo.delete', expect.objectContaining({ photoId: b, main: true }), { order: [c, a] }],
      ['product.photo.delete', expect.objectContaining({ photoId: c, main: true }), { order: [a] }],
      ['product.photo.delete', expect.objectContaining({ photoId: a, main: true }), { order: [] }],
    ]);
  });

  it("shows the uploaded photos, main first, on the product's own back-office page in place of its drawing", async () => {
    const { id } = await newProduct();
    const detail = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/admin/products/${id}`, headers: { cookie } })).json<{
        images: Array<{ imageUrl: string }>;
      }>();
    expect((await detail()).images).toEqual([{ imageUrl: '/images/products/sitar-2.svg' }]);
    const uploaded = await upload(id, [
      { filename: 'a.jpg', contentType: 'image/jpeg', bytes: await makePicture('jpeg', 700, 700) },
      { filename: 'b.png', contentType: 'image/png', bytes: await makePicture('png', 500, 400) },
    ]);
    const keys = uploaded.json<ProductPhotos>().photos.map((p) => p.sources.key);
    // Small enough for the page's thumbnails: the narrowest width kept.
    expect((await detail()).images).toEqual(keys.map((key) => ({ imageUrl: `/images/photos/${key}-320.webp` })));
  });

  it('serves a photo uploaded through one instance from another, cached for a year, with 304 for its ETag', async () => {
    const { id } = await newProduct();
    const uploaded = await upload(id, [
      { filename: 'a.jpg', contentType: 'image/jpeg', bytes: await makePicture('jpeg', 900, 600) },
    ]);
    const [photo] = uploaded.json<ProductPhotos>().photos;
    const second = await createSecondInstance(t);
    try {
      for (const variant of photo!.variants) {
        const served = await second.app.inject({ method: 'GET', url: variant.url });
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe(variant.format === 'avif' ? 'image/avif' : 'image/webp');
        expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(served.headers['x-content-type-options']).toBe('nosniff');
        expect(served.rawPayload.length).toBe(variant.bytes);
        const again = await second.app.inject({
          method: 'GET',
          url: variant.url,
          headers: { 'if-none-match': served.headers.etag as string },
        });
        expect(again.statusCode).toBe(304);
        expect(again.rawPayload.length).toBe(0);
      }
      const shown = (await second.app.inject({ method: 'GET', url: `/api/products/${id}` })).json<Product>();
      expect(shown.images[0]!.photo?.widths).toEqual([320, 640, 900]);
    } finally {
      await second.close();
    }
  });

  it('answers 404 for names that are not a photo', async () => {
    for (const file of [
      `${'a'.repeat(32)}-320.webp`,
      `${'a'.repeat(32)}-320.png`,
      'x-320.webp',
      '..%2F..%2Fetc%2Fpasswd',
    ]) {
      expect((await t.app.inject({ method: 'GET', url: `/images/photos/${file}` })).statusCode).toBe(404);
    }
  });

  it('preloads the main photo on the product page', async () => {
    const { id, urlKey } = await newProduct();
    await upload(id, [{ filename: 'a.jpg', contentType: 'image/jpeg', bytes: await makePicture('jpeg', 700, 500) }]);
    const shown = await product(id);
    const page = await t.app.inject({ method: 'GET', url: `/products/${urlKey}` });
    const key = shown.images[0]!.photo!.key;
    expect(page.body).toContain(
      `<link rel="preload" as="image" type="image/avif" fetchpriority="high" imagesrcset="/images/photos/${key}-320.avif 320w, /images/photos/${key}-640.avif 640w, /images/photos/${key}-700.avif 700w"`,
    );
  });

  it('refuses a picture taller than the encoders take with a 400 naming the limit', async () => {
    // 320 × 40,000 was answered 500 "Processed image is too large for the HEIF format".
    const { id } = await newProduct();
    const tall = await sharp({ create: { width: 320, height: 40_000, channels: 3, background: '#a0522d' } })
      .png()
      .toBuffer();
    const answer = await upload(id, [{ filename: 'tall.png', contentType: 'image/png', bytes: tall }]);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().error.fields).toEqual([
      {
        field: 'file',
        message: expect.stringContaining(`tall.png: the picture is 320 × 40000 pixels`),
      },
    ]);
    expect(answer.json().error.message).toContain(
      `at most ${photoLimits.maxHeight.toLocaleString('en-GB')} pixels tall`,
    );
    expect((await list(id)).photos).toEqual([]);
  });

  it('refuses a picture of more pixels than it takes with a 400 naming the limit, not as unreadable', async () => {
    // 16,000 × 16,000 (776 kB) was answered "could not be read as a picture": the decoder's own
    // limit refused it before the shop's check could name the limit. A PNG that says 8,000 × 8,000
    // in its header is enough (the header is all that is read before the refusal).
    const { id } = await newProduct();
    const strip = await sharp({ create: { width: 8000, height: 1, channels: 3, background: '#a0522d' } })
      .png()
      .toBuffer();
    const large = Buffer.from(strip);
    large.writeUInt32BE(8000, 20);
    large.writeUInt32BE(crc32(large.subarray(12, 29)), 29);
    const answer = await upload(id, [{ filename: 'large.png', contentType: 'image/png', bytes: large }]);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().error.message).toContain(
      'large.png: the picture is 8000 × 8000 pixels; at most 50 megapixels',
    );
    expect((await list(id)).photos).toEqual([]);
  });

  it('refuses an upload (429, Retry-After) while every place in the conversion queue is taken, before reading it', async () => {
    const { id } = await newProduct();
    const photos = createPhotosAdminService(t.db.kysely, {
      store: createDatabasePhotoStore(t.db.kysely),
      limiter: createConversionLimiter({ concurrency: 1, maxWaiting: 0 }),
    });
    const staff = { id: 1, email: staffEmail, name: 'Staff', role: 'staff' } as Staff;
    /** A file whose reading is held until the test lets it go, and which says whether it was read. */
    const heldFile = (name: string) => {
      let release!: () => void;
      let started!: () => void;
      const reading = new Promise<void>((resolve) => (started = resolve));
      const held = new Promise<void>((resolve) => (release = resolve));
      const file = {
        name,
        read: false,
        async bytes() {
          file.read = true;
          started();
          await held;
          return Buffer.from('not a picture');
        },
        async writeTo(path: string) {
          file.read = true;
          started();
          await held;
          writeFileSync(path, 'not a picture');
        },
      };
      return { file, reading, release };
    };
    async function* one<T>(item: T) {
      yield item;
    }
    const first = heldFile('first.png');
    const second = heldFile('second.png');
    second.release();
    const firstUpload = photos.upload(id, one(first.file), staff).catch((error: unknown) => error);
    await first.reading;
    const refusal = await photos.upload(id, one(second.file), staff).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RefusedError);
    expect(refusal).toMatchObject({ status: 429, retryAfterSeconds: expect.any(Number) });
    expect(second.file.read).toBe(false);
    first.release();
    expect(await firstUpload).toBeInstanceOf(BadRequestError);
  });
});

describe('photos on a shop that keeps its catalogue for a while', () => {
  it('show in the shop at once on the instance that made the change (ADR 0010): upload, main photo, delete', async () => {
    const t = await createTestApp({ env: { CATALOG_CACHE_SECONDS: '60' } });
    onTestFinished(() => t.close());
    const make = catalogFactory(t.db);
    const { id } = await make.product({
      typeId: (await make.type()).id,
      brandId: (await make.brand()).id,
      images: ['/images/products/sitar-2.svg'],
    });
    const { cookie } = await staffMember(t, 'staff');
    const shownPhotos = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/products/${id}` }))
        .json<Product>()
        .images.map((image) => image.photo?.width ?? image.imageUrl);
    expect(await shownPhotos()).toEqual(['/images/products/sitar-2.svg']);

    const body = multipart([
      { filename: 'a.jpg', contentType: 'image/jpeg', bytes: await makePicture('jpeg', 700, 700) },
      { filename: 'b.png', contentType: 'image/png', bytes: await makePicture('png', 500, 400) },
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/admin/products/${id}/photos`,
      headers: { ...body.headers, cookie },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(await shownPhotos()).toEqual([700, 500]);

    const [a, b] = uploaded.json<ProductPhotos>().photos.map((photo) => photo.id) as [number, number];
    const call = (method: 'PUT' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url: `/api/admin/products/${id}/photos${url}`, headers: { cookie }, payload });
    expect((await call('PUT', '/order', { photoIds: [b, a] })).statusCode).toBe(200);
    expect(await shownPhotos()).toEqual([500, 700]);
    expect((await call('DELETE', `/${b}`)).statusCode).toBe(200);
    expect(await shownPhotos()).toEqual([700]);
  });
});
