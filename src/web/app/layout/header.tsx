import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { basketSummary } from '../../lib/basket/basket-store.ts';
import { useBasket } from '../../lib/basket/use-basket.ts';
import { useProductTypes } from '../../lib/catalog-api.ts';
import { formatPence } from '../../lib/format.ts';
import { shop } from '../../lib/shop.ts';
import styles from './layout.module.css';

export function Header() {
  const header = useRef<HTMLElement>(null);
  // What sticks below the header, and where an anchor scrolls to, follows its height, which
  // differs between a phone and a desktop.
  useEffect(() => {
    const element = header.current;
    if (!element) return;
    const keep = () => document.documentElement.style.setProperty('--header-height', `${element.offsetHeight}px`);
    keep();
    const observer = new ResizeObserver(keep);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <header className={styles.header} ref={header}>
      <div className={`container ${styles.headerInner}`}>
        <Link to="/home" className={styles.logo}>
          <img src="/favicon.svg" alt="" width={40} height={40} />
          <span>{shop.name}</span>
        </Link>
        <nav aria-label="Main" className={styles.mainNav}>
          <NavLink to="/home" className={styles.navLink}>
            HOME
          </NavLink>
          <NavLink to="/search" className={styles.navLink}>
            SEARCH
          </NavLink>
          <ProductsMenu />
        </nav>
        <CartSummary />
      </div>
    </header>
  );
}

/** The PRODUCTS mega-menu, built from the type tree; each type links to /search?t={id}. */
function ProductsMenu() {
  const types = useProductTypes();
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const location = useLocation();
  // The menu belongs to the page it was opened on: any navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === location.key;
  const setOpen = (value: boolean | ((current: boolean) => boolean)) =>
    setOpenOn((current) => {
      const next = typeof value === 'function' ? value(current === location.key) : value;
      return next ? location.key : null;
    });
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpenOn(null);
        root.current?.querySelector('button')?.focus();
      }
    };
    const onClick = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpenOn(null);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, [open]);

  return (
    <div className={styles.menu} ref={root}>
      <button
        type="button"
        className={styles.navLink}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        PRODUCTS <span aria-hidden="true">▾</span>
      </button>
      <div id={panelId} className={styles.megaMenu} hidden={!open}>
        {types.data?.map((type) => (
          <section key={type.id} className={styles.megaColumn} aria-labelledby={`${panelId}-${type.id}`}>
            <h2 id={`${panelId}-${type.id}`} className={styles.megaHeading}>
              <Link to={`/search?t=${type.id}`}>{type.name}</Link>
            </h2>
            <ul>
              {type.childTypes.map((child) => (
                <li key={child.id}>
                  <Link to={`/search?t=${child.id}`}>{child.name}</Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}

/** "{n} Items" and the items total, linking to the cart (docs/rules.md#pages-and-routes). */
function CartSummary() {
  const { count, total } = basketSummary(useBasket());
  return (
    <Link to="/shoppingcart" className={styles.cart} aria-label={`Basket: ${count} Items, ${formatPence(total)}`}>
      <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true">
        <path
          fill="currentColor"
          d="M7 18a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm10 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4zM5.2 4l.6 3H21l-2 8H7.4L4.4 2H1v2h2.6z"
        />
      </svg>
      <span className={styles.cartText}>
        <span data-testid="cart-count">{count} Items</span>
        <span data-testid="cart-total">{formatPence(total)}</span>
      </span>
    </Link>
  );
}
