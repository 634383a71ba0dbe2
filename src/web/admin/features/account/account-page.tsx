import { AdminPage } from '../../lib/admin-page.tsx';

export default function Page() {
  return <AdminPage title="account-page">{null}</AdminPage>;
}
