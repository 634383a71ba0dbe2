import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet, useLocation } from 'react-router';
import { mayCall } from '../../../contract/admin/permissions.ts';
import { AdminPage } from '../lib/admin-page.tsx';
import { isSignedOut } from '../lib/problem.ts';
import { staffMeQueryOptions } from '../lib/staff-session.ts';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { PageLoading } from './layout.tsx';

/**
 * The sign-in guard: signed-out people go to the sign-in page, which brings them back here; a page
 * whose data the member's role may not read (`route`, by the server's table) says it is not theirs.
 * The server checks every call on its own anyway.
 */
export function RequireStaff({ route }: { route?: string }) {
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
  if (route && !mayCall(me.data.access, me.data.permissions, route)) {
    return (
      <AdminPage title="Not for your role">
        <p>Your role does not include this page. An owner can change what your role allows.</p>
      </AdminPage>
    );
  }
  return <Outlet />;
}
