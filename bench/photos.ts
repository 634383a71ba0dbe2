import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { createConversionLimiter } from '../src/server/catalog/photos/conversion-limiter.ts';
import { createDatabasePhotoStore } from '../src/server/catalog/photos/photo-store.ts';
import { createPhotosAdminService } from '../src/server/catalog/photos/photos.admin-service.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { createStaffService } from '../src/server/staff/staff.service.ts';

/**
 * A catalogue of uploaded photos for the page benchmark (`npm run bench:pages -- --photos`): every
 * product gets a camera-sized JPEG (2400 × 1800, about 1 MB, with the fine detail and noise of a
 * photograph, each product's its own), and `extra` products three, through the back office's
 * service, so they are converted and stored as an upload through the API would be.
 */
const W = 2400;
const H = 1800;

/** Smooth noise at several scales, like light and texture in a photograph. */
async function photoLikePixels(): Promise<Buffer> {
  const layer = async (scale: number, sigma: number) => {
    const w = Math.ceil(W / scale);
    const h = Math.ceil(H / scale);
    const raw = Buffer.alloc(w * h * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = Math.random() * 255;
    return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
      .resize(W, H, { kernel: 'cubic' })
      .blur(sigma)
      .raw()
      .toBuffer();
  };
  const layers = await Promise.all([layer(100, 20), layer(20, 4), layer(4, 1), layer(1, 0.3)]);
  const weights = [0.55, 0.25, 0.12, 0.08];
  const pixels = Buffer.alloc(W * H * 3);
  for (let i = 0; i < pixels.length; i++) {
    let value = 0;
    for (let l = 0; l < layers.length; l++) value += (layers[l] as Buffer)[i]! * weights[l]!;
    pixels[i] = value;
  }
  return pixels;
}

export async function uploadPhotos(databaseUrl: string, options: { extra: number[] }): Promise<number> {
  const db = openDatabase(databaseUrl);
  try {
    const staff = createStaffService(db.kysely, { publicUrl: 'http://localhost', shopName: async () => 'Bench' });
    const { member } = await staff.create({
      email: `photos.${Date.now()}@bench.example`,
      name: 'Bench',
      role: 'staff',
    });
    const photos = createPhotosAdminService(db.kysely, {
      store: createDatabasePhotoStore(db.kysely),
      limiter: createConversionLimiter({ concurrency: 2, maxWaiting: 10_000 }),
    });
    const pixels = await photoLikePixels();
    const products = await db.kysely.selectFrom('products').select('id').orderBy('id').execute();
    let made = 0;
    const jpeg = (hue: number) =>
      sharp(pixels, { raw: { width: W, height: H, channels: 3 } })
        .modulate({ hue, saturation: 1.2 })
        .jpeg({ quality: 88 })
        .toBuffer();
    await Promise.all(
      [0, 1].map(async (worker) => {
        for (let i = worker; i < products.length; i += 2) {
          const id = products[i]!.id;
          const count = options.extra.includes(id) ? 3 : 1;
          const files = await Promise.all(
            Array.from({ length: count }, async (_, n) => {
              const bytes = await jpeg((id * 37 + n * 120) % 360);
              return { name: `${id}-${n}.jpg`, writeTo: (path: string) => writeFile(path, bytes) };
            }),
          );
          await photos.upload(id, toAsync(files), {
            id: member.id,
            email: member.email,
            name: 'Bench',
            role: 'staff',
            permissions: ['catalogue'],
          });
          made += count;
        }
      }),
    );
    return made;
  } finally {
    await db.destroy();
  }
}

async function* toAsync<T>(items: T[]): AsyncIterable<T> {
  yield* items;
}
