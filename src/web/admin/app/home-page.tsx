import { lazy } from 'react';
import { Navigate } from 'react-router';
import { useMayCall } from '../lib/access.ts';
import { navPages } from './nav.ts';

const DashboardPage = lazy(() => import('../features/dashboard/dashboard-page.tsx'));

/**
 * The back office's first page: the dashboard for a role that may read it; for another (a packer),
 * the first page their role allows, so nobody lands on a refusal.
 */
export function HomePage() {
  const may = useMayCall();
  if (may('GET /dashboard')) return <DashboardPage />;
  const first = navPages.find((page) => page.to !== '/' && may(page.route));
  return <Navigate to={first?.to ?? '/account'} replace />;
}
