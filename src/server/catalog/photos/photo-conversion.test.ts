import { describe, expect, it } from 'vitest';
import { createConversionLimiter } from './conversion-limiter.ts';
import { sniffImageType, variantWidths } from './photo-conversion.ts';

describe('photo conversion rules', () => {
  it.each([
    [5000, [320, 640, 1024, 1600]],
    [1600, [320, 640, 1024, 1600]],
    [1599, [320, 640, 1024, 1599]],
    [1024, [320, 640, 1024]],
    [700, [320, 640, 700]],
    [320, [320]],
    [120, [120]],
  ])('keeps a picture %i pixels wide at %j, never wider than it is', (width, widths) => {
    expect(variantWidths(width)).toEqual(widths);
  });

  it('knows JPEG, PNG and WebP by their first bytes, and nothing else', () => {
    const bytes = (...values: Array<number | string>) =>
      Buffer.concat(values.map((v) => (typeof v === 'string' ? Buffer.from(v, 'latin1') : Buffer.from([v]))));
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('jpeg');
    expect(sniffImageType(bytes(0x89, 'PNG\r\n', 0x1a, '\n'))).toBe('png');
    expect(sniffImageType(bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 '))).toBe('webp');
    for (const other of [
      bytes('GIF89a'),
      bytes('<?php echo 1; ?>'),
      bytes('<svg'),
      bytes('RIFF', 0, 0, 0, 0, 'WAVEfmt '),
      bytes(0xff, 0xd8),
      bytes(),
    ]) {
      expect(sniffImageType(other)).toBeUndefined();
    }
  });
});

describe('conversion limiter', () => {
  it('runs at most `concurrency` at once, in order, and refuses past the queue', async () => {
    const limiter = createConversionLimiter({ concurrency: 1, maxWaiting: 2 });
    const started: number[] = [];
    const finish: Array<() => void> = [];
    const job = (n: number) =>
      limiter.run(
        () =>
          new Promise<number>((resolve) => {
            started.push(n);
            finish.push(() => resolve(n));
          }),
      );
    const first = job(1);
    const second = job(2);
    const third = job(3);
    await expect(job(4)).rejects.toMatchObject({ status: 429 });
    expect(started).toEqual([1]);
    expect(limiter.load).toEqual({ running: 1, waiting: 2 });
    finish[0]!();
    expect(await first).toBe(1);
    await Promise.resolve();
    expect(started).toEqual([1, 2]);
    finish[1]!();
    await second;
    await Promise.resolve();
    finish[2]!();
    expect(await third).toBe(3);
    expect(limiter.load).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot when a conversion fails', async () => {
    const limiter = createConversionLimiter({ concurrency: 1, maxWaiting: 0 });
    await expect(limiter.run(() => Promise.reject(new Error('bad picture')))).rejects.toThrow('bad picture');
    expect(await limiter.run(async () => 'next')).toBe('next');
  });
});
