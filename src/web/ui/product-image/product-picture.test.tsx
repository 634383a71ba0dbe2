// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProductPicture } from './product-picture.tsx';

const key = 'a'.repeat(32);
const photo = { key, width: 1200, height: 900, widths: [320, 640, 1024, 1200], formats: ['avif', 'webp'] as const };

describe('ProductPicture', () => {
  afterEach(cleanup);

  it('draws an uploaded photo as AVIF then WebP with srcsets, sizes and its own width and height, lazy', () => {
    const { container } = render(
      <ProductPicture
        image={{ imageUrl: `/images/photos/${key}-1024.webp`, photo: { ...photo, formats: [...photo.formats] } }}
        sizes="300px"
        alt="A dhol"
        width={300}
        height={300}
      />,
    );
    const source = container.querySelector('picture > source');
    expect(source?.getAttribute('type')).toBe('image/avif');
    expect(source?.getAttribute('srcset')).toBe(
      `/images/photos/${key}-320.avif 320w, /images/photos/${key}-640.avif 640w, /images/photos/${key}-1024.avif 1024w, /images/photos/${key}-1200.avif 1200w`,
    );
    expect(source?.getAttribute('sizes')).toBe('300px');
    const img = screen.getByRole('img', { name: 'A dhol' });
    expect(img.getAttribute('src')).toBe(`/images/photos/${key}-320.webp`);
    expect(img.getAttribute('srcset')).toMatch(/-320\.webp 320w, .*-1200\.webp 1200w$/);
    expect([img.getAttribute('width'), img.getAttribute('height'), img.getAttribute('loading')]).toEqual([
      '1200',
      '900',
      'lazy',
    ]);
  });

  it('draws a product without uploads as its drawing, as before', () => {
    const { container } = render(
      <ProductPicture
        image={{ imageUrl: '/images/products/dhol-1.svg' }}
        sizes="300px"
        alt="A dhol"
        width={600}
        height={600}
        loading="eager"
        fetchPriority="high"
      />,
    );
    expect(container.querySelector('picture')).toBeNull();
    const img = screen.getByRole('img', { name: 'A dhol' });
    expect(img.getAttribute('src')).toBe('/images/products/dhol-1.svg');
    expect(img.getAttribute('srcset')).toBeNull();
    expect([img.getAttribute('width'), img.getAttribute('loading'), img.getAttribute('fetchpriority')]).toEqual([
      '600',
      'eager',
      'high',
    ]);
  });
});
