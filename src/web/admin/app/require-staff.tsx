import { useQuery } from '@tanstack/react-query';
import type { StaffRole } from '../../../contract/admin/staff.ts';
import { Navigate, Outlet, useLocation } from 'react-router';
import { AdminPage } from '../lib/admin-page.tsx';
import { isSignedOut } from '../lib/problem.ts';
import { staffMeQueryOptions } from '../lib/staff-session.ts';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { PageLoading } from './layout.tsx';

/**
 * The sign-in guard: signed-out people go to the sign-in page, which brings them back here; an
 * owner-only page tells staff it is not theirs. The server checks every call on its own anyway.
 */
export function RequireStaff({ role }: { role?: StaffRole }) {
  const location = useLocation();
  const me = useQuery(staffMeQueryOptions());
  if (me.isPending) return <PageLoading />;
  if (me.isError) {
    if (isSignedOut(me.error)) {
      const next = `${location.pathname}${location.search}`;
      return <Navigate to={`/sign-in${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}`} replace />;
    }
    return <ErrorAlert error={me.error} />;
  }
  if (role === 'owner' && me.data.role !== 'owner') {
    return (
      <AdminPage title="For owners only">
        <p>Only an owner may manage staff accounts.</p>
      </AdminPage>
    );
  }
  return <Outlet />;
}
