import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { pageModules, pageRoutes, type PageName } from '../../contract/routes.ts';
import { Layout } from './layout/layout.tsx';

/**
 * The shop's route table, made from the one in src/contract/routes.ts (docs/rules.md#pages-and-routes),
 * from which the server also lists its pages and preloads each page's code and styles. Every page
 * is its own lazily loaded module, so a page downloads only what it needs. React Router's
 * declarative mode is used: the shop needs no loaders or actions, and it is 17 kB lighter than the
 * data router.
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

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        {/* The bare address is the home page, shown at /home as the spec's route table has it. */}
        <Route index element={<Navigate to="/home" replace />} />
        {pageRoutes
          .filter((route) => route.path !== '/')
          .map(({ path, page }) => {
            const Page = pages[page];
            return <Route key={path} path={path.slice(1)} element={<Page />} />;
          })}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
