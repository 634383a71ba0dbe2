import { Link } from 'react-router';
import { AdminPage } from '../lib/admin-page.tsx';

export default function NotFoundPage() {
  return (
    <AdminPage title="Page not found">
      <p>
        There is no such page in the back office. <Link to="/">Go to the dashboard</Link>.
      </p>
    </AdminPage>
  );
}
