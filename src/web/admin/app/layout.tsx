import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useRef, useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { requestJson } from '../../lib/api.ts';
import { useMayCall } from '../lib/access.ts';
import { LeaveGuard } from '../lib/leave-guard.tsx';
import { isStaffMeKey, staffKeys, staffMeQueryOptions } from '../lib/staff-session.ts';
import { navPages } from './nav.ts';

/** The back office's frame: a skip link, the nav (the pages the member's role may see) and the page. */
export function Layout() {
  const me = useQuery(staffMeQueryOptions());
  const may = useMayCall();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signedIn = me.data;
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  async function signOut() {
    await requestJson('/api/admin/sign-out', { method: 'POST', body: '{}' }).catch(() => undefined);
    await navigate('/sign-in');
    // Nothing of the last person's data stays in memory; asking who is signed in now answers 401.
    queryClient.removeQueries({ predicate: (query) => !isStaffMeKey(query.queryKey) });
    await queryClient.resetQueries({ queryKey: staffKeys.me });
  }

  return (
    <div className="adm-shell">
      <a className="adm-skip" href="#main">
        Skip to content
      </a>
      <header className="adm-header">
        <div className="adm-brand">
          <span aria-hidden="true">◆</span> Back office
        </div>
        {signedIn && (
          <>
            {/* On a phone the pages' list folds behind this button (admin.css); wider, it is hidden. */}
            <button
              ref={menuButton}
              type="button"
              className="adm-menu-button"
              aria-expanded={menuOpen}
              aria-controls="adm-nav"
              onClick={() => setMenuOpen((open) => !open)}
            >
              <span aria-hidden="true">☰</span> Menu
            </button>
            <nav
              id="adm-nav"
              aria-label="Back office"
              className={menuOpen ? 'adm-nav-open' : undefined}
              // A page chosen closes the menu; Escape closes it and gives the focus back to its button.
              onClick={(event) => {
                if ((event.target as HTMLElement).closest('a')) setMenuOpen(false);
              }}
              onKeyDown={(event) => {
                if (event.key !== 'Escape') return;
                setMenuOpen(false);
                menuButton.current?.focus();
              }}
            >
              <ul className="adm-nav">
                {navPages
                  .filter((page) => may(page.route))
                  .map((page) => (
                    <li key={page.to}>
                      <NavLink to={page.to} end={page.to === '/'}>
                        {page.label}
                      </NavLink>
                    </li>
                  ))}
              </ul>
            </nav>
            <div className="adm-who">
              <span>
                {signedIn.email} ({signedIn.role})
              </span>
              <button type="button" className="adm-link-button" onClick={() => void signOut()}>
                Sign out
              </button>
            </div>
          </>
        )}
      </header>
      <main id="main" className="adm-main" tabIndex={-1}>
        <LeaveGuard>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </LeaveGuard>
      </main>
    </div>
  );
}

/** While a page's code loads: the document keeps a title until the page brings its own. */
export function PageLoading() {
  return (
    <div role="status" aria-live="polite">
      <title>Back office</title>
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}
