import { Link } from 'react-router';
import { messages } from '../../../contract/messages.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import styles from './not-found-page.module.css';

export default function NotFoundPage() {
  return (
    <div className={`container page ${styles.page}`}>
      <PageMeta title="404 Page Not Found" />
      <h1 className={styles.code}>404</h1>
      <p className={styles.lead}>{messages.notFound}</p>
      <p>The page you were looking for might have been removed, renamed or be temporarily unavailable.</p>
      <Link to="/home" className="button">
        HOME
      </Link>
    </div>
  );
}
