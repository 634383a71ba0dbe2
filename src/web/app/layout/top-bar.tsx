import { Link } from 'react-router';
import { displayName, useSignedInUser } from '../../lib/account.ts';
import { shop, telHref } from '../../lib/shop.ts';
import styles from './layout.module.css';

export function TopBar() {
  const user = useSignedInUser();
  return (
    <div className={styles.topBar}>
      {/* The phone number is a way to contact the shop, so it is in the same landmark as the
          others: outside any landmark, screen-reader users moving by landmark would miss it. */}
      <nav aria-label="Contact and account" className={`container ${styles.topBarInner}`}>
        <a href={telHref(shop.phone)} className={styles.topLink}>
          <span aria-hidden="true">☎ </span>
          {shop.phone}
        </a>
        <div className={styles.topNav}>
          <Link to="/contact" className={styles.topLink}>
            Contact
          </Link>
          <a href={shop.facebookUrl} className={styles.topLink} rel="noopener noreferrer" target="_blank">
            Facebook<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
          <a href={shop.instagramUrl} className={styles.topLink} rel="noopener noreferrer" target="_blank">
            Instagram<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
          <a href={`mailto:${shop.email}`} className={styles.topLink}>
            Email us
          </a>
          {user.data ? (
            <Link to="/account-home" className={styles.topLink}>
              {displayName(user.data)}
            </Link>
          ) : (
            <Link to="/login" className={styles.topLink}>
              Login
            </Link>
          )}
        </div>
      </nav>
    </div>
  );
}
