import type { FastifyPluginAsync } from 'fastify';
import type { CatalogService } from '../catalog/catalog.service.ts';
import { escapeHtml } from '../http/html.ts';

/** The most URLs one sitemap file may hold is 50,000; the shop's pages come first. */
const MAX_PRODUCTS_IN_SITEMAP = 49_000;
// The home page's canonical address is the site root (page-head.ts).
const staticPages = ['/', '/search', '/about', '/contact', '/termsandconditions', '/returns'];

export const seoRoutes: FastifyPluginAsync<{ catalog: CatalogService; publicUrl: string }> = async (
  app,
  { catalog, publicUrl },
) => {
  app.get('/robots.txt', (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .send(
        [
          'User-agent: *',
          'Disallow: /api/',
          'Disallow: /checkout',
          'Disallow: /account-home',
          'Disallow: /order-recovery/',
          `Sitemap: ${publicUrl}/sitemap.xml`,
          '',
        ].join('\n'),
      ),
  );

  app.get('/sitemap.xml', async (_request, reply) => {
    const keys = await catalog.productUrlKeys(MAX_PRODUCTS_IN_SITEMAP);
    const urls = [...staticPages, ...keys.map((key) => `/products/${encodeURIComponent(key)}`)];
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...urls.map((path) => `<url><loc>${escapeHtml(publicUrl + path)}</loc></url>`),
      '</urlset>',
      '',
    ].join('\n');
    return reply.header('cache-control', 'public, max-age=3600').type('application/xml; charset=utf-8').send(body);
  });
};
