import type { FastifyPluginAsync } from 'fastify';
import type { CatalogService } from '../catalog/catalog.service.ts';
import { seoRoutes } from './seo.routes.ts';

export interface SeoFeatureOptions {
  catalog: CatalogService;
  publicUrl: string;
}

/** What search engines read beside the pages: robots.txt and the sitemap. */
export const seoFeature: FastifyPluginAsync<SeoFeatureOptions> = async (app, { catalog, publicUrl }) => {
  await app.register(seoRoutes, { catalog, publicUrl });
};
