import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { shop } from '../../lib/shop.ts';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';
import styles from './layout.module.css';
import { TopBar } from './top-bar.tsx';

/** The shared layout of every shop page (docs/rules.md#pages-and-routes). */
export function Layout() {
  const { pathname } = useLocation();
  // A new page starts at its top, as a page load would. (Braces: newer browsers' scrollTo
  // returns a promise, which React would take for a cleanup function.)
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <div className={styles.shell}>
      <a className={styles.skip} href="#main">
        Skip to content
      </a>
      <TopBar />
      <Header />
      <main id="main" className={styles.main} tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}

/**
 * Shown while a page's code loads. It gives the document the shop's name as its title: main.tsx
 * removes the server's title so the page's own can take its place, and until the page has loaded
 * there would otherwise be none (axe caught it between the two).
 */
export function PageLoading() {
  return (
    <div className="container page" role="status" aria-live="polite">
      <title>{shop.name}</title>
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}
