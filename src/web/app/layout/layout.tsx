import { Suspense, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { isShopperPage } from '../../../contract/routes.ts';
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
          {/* A page of the shopper's own is drawn by the browser alone (ShopperPage, below). */}
          {isShopperPage(pathname) ? (
            <ShopperPage>
              <Outlet />
            </ShopperPage>
          ) : (
            <Outlet />
          )}
          <PageHydrated />
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

/**
 * Marks the document once the page's part has been hydrated or drawn in the browser, so the page
 * answers the shopper from then on: a page drawn on the server starts its code after its first
 * paint (docs/decisions/0021-server-rendering.md), and a tap before then does nothing. Browser
 * tests wait for it after loading a page; a monitor may too. Renders nothing, on either side.
 * Taps on the page before then were kept by /boot.js; they are answered here.
 */
function PageHydrated() {
  useEffect(() => {
    document.documentElement.setAttribute('data-hydrated', '');
    // When the page answers taps, for bench:pages (its slow phone's time to interactive).
    performance.mark('shop:started');
    // Taps kept by /boot.js while the code was on its way are answered now.
    window.shopStarted?.();
  }, []);
  return null;
}

declare global {
  interface Window {
    /** Set by /boot.js until the page has started: answers the taps it kept meanwhile. */
    shopStarted?: () => void;
  }
}

const noChanges = () => () => undefined;

/**
 * A page that depends on what is in the shopper's browser (the basket, the session, a token in the
 * address): the server draws the shop around it with the page's loading state in its place
 * (docs/decisions/0021-server-rendering.md), and the browser, once it has hydrated that, draws the
 * page itself. The first render in the browser is the server's (useSyncExternalStore's server
 * snapshot while hydrating), so nothing mismatches.
 */
export function ShopperPage({ children }: { children: ReactNode }) {
  const inBrowser = useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  );
  return inBrowser ? children : <PageLoading />;
}
