import sharp from 'sharp';

/** A picture in one format, made here, with a different colour for each so they can be told apart. */
export async function picture(format: 'jpeg' | 'png' | 'webp', width: number, height: number, colour: string) {
  const image = sharp({ create: { width, height, channels: 3, background: colour } });
  return format === 'jpeg'
    ? image.jpeg().toBuffer()
    : format === 'png'
      ? image.png().toBuffer()
      : image.webp().toBuffer();
}
