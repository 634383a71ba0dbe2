import { AdminPage } from '../../lib/admin-page.tsx';

export default function Page() {
  return <AdminPage title="staff-page">{null}</AdminPage>;
}
