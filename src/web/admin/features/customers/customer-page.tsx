import { AdminPage } from '../../lib/admin-page.tsx';

export default function Page() {
  return <AdminPage title="customer-page">{null}</AdminPage>;
}
