import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
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

export function PageLoading() {
  return (
    <div className="container page" role="status" aria-live="polite">
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}
