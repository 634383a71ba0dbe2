import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import { isPublicPage, type PageLocation } from '../../contract/page-loaders.ts';
import { pageModules, pageRoutes, type PageName, type PublicPageName } from '../../contract/routes.ts';
import { Layout } from './layout/layout.tsx';

/**
 * The shop's route table, made from the one in src/contract/routes.ts (docs/rules.md#pages-and-routes),
 * from which the server also lists its pages and preloads each page's code and styles. Every page
 * is its own lazily loaded module, so a page downloads only what it needs. React Router's
 * declarative mode is used: the shop needs no actions, and it is 17 kB lighter than the data
 * router. A public page's data is asked for by its loader (src/contract/page-loaders.ts), the one
 * the server fills the page's HTML with, as the page is first drawn (WithPageData).
 */

// Vite makes each of these a chunk of its own, loaded when first drawn.
const pageLoaders = import.meta.glob<{ default: ComponentType }>('../features/*/*-page.tsx');

function lazyPage(name: PageName): LazyExoticComponent<ComponentType> {
  const load = pageLoaders[`../${pageModules[name]}`];
  if (!load) throw new Error(`No page module ${pageModules[name]} for the page ${name}`);
  return lazy(load);
}

const pages = Object.fromEntries(Object.keys(pageModules).map((name) => [name, lazyPage(name as PageName)])) as Record<
  PageName,
  LazyExoticComponent<ComponentType>
>;

const NotFoundPage = pages.notFound;

/** Starts loading a public page's data into the query cache (the browser's; the server has written it already). */
export type PageDataPrefetch = (page: PublicPageName, at: PageLocation) => void;

/**
 * Asks for the page's data as it is rendered, before its code (a lazy chunk the first time) lets it
 * draw, so the two download together; the page's own hooks then read the same keys. The loader reads
 * through the query cache, so a page drawn again, or one whose data came with its HTML, asks nothing.
 */
function WithPageData({
  page,
  prefetch,
  children,
}: {
  page: PublicPageName;
  prefetch: PageDataPrefetch | undefined;
  children: ReactNode;
}) {
  const { search } = useLocation();
  const params = useParams();
  prefetch?.(page, { params, query: new URLSearchParams(search) });
  return children;
}

export function AppRoutes({ prefetch }: { prefetch?: PageDataPrefetch }) {
  return (
    <Routes>
      <Route element={<Layout />}>
        {/* The bare address is the home page, shown at /home as the spec's route table has it. */}
        <Route index element={<Navigate to="/home" replace />} />
        {pageRoutes
          .filter((route) => route.path !== '/')
          .map(({ path, page }) => {
            const Page = pages[page];
            const element = isPublicPage(page) ? (
              <WithPageData page={page} prefetch={prefetch}>
                <Page />
              </WithPageData>
            ) : (
              <Page />
            );
            return <Route key={path} path={path.slice(1)} element={element} />;
          })}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
