import { Link } from 'react-router';
import { findType, useBrands, useProductTypes } from '../../lib/catalog-api.ts';
import { shop, telHref } from '../../lib/shop.ts';
import { ShopMap } from '../../ui/shop-map/shop-map.tsx';
import styles from './layout.module.css';

/** docs/rules.md#pages-and-routes: the quick shop links use these type ids, the brand links these brand ids. */
const quickShopTypeIds = [2021, 2017, 2009, 1003, 2019, 1001, 2016];
const footerBrandIds = [2, 1, 1001];

export function Footer() {
  const types = useProductTypes();
  const brands = useBrands();
  return (
    <footer className={styles.footer}>
      <div className={`container ${styles.footerGrid}`}>
        <section aria-labelledby="footer-shop">
          <h2 id="footer-shop">Quick Shop</h2>
          <ul>
            {/* Names as the back office keeps them; a type deleted there drops out once the tree is in. */}
            {quickShopTypeIds
              .filter((id) => !types.data || findType(types.data, id))
              .map((id) => (
                <li key={id}>
                  <Link to={`/search?t=${id}`}>{findType(types.data, id)?.name ?? `Category ${id}`}</Link>
                </li>
              ))}
          </ul>
        </section>
        <section aria-labelledby="footer-brands">
          <h2 id="footer-brands">Brands</h2>
          <ul>
            {footerBrandIds
              .filter((id) => !brands.data || brands.data.some((b) => b.id === id))
              .map((id) => (
                <li key={id}>
                  <Link to={`/search?b=${id}`}>{brands.data?.find((b) => b.id === id)?.name ?? `Brand ${id}`}</Link>
                </li>
              ))}
          </ul>
          <h2 id="footer-social">Social Media</h2>
          <ul aria-labelledby="footer-social">
            <li>
              <a href={shop.facebookUrl} rel="noopener noreferrer" target="_blank">
                Facebook<span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </li>
            <li>
              <a href={shop.instagramUrl} rel="noopener noreferrer" target="_blank">
                Instagram<span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </li>
          </ul>
        </section>
        <section aria-labelledby="footer-support">
          <h2 id="footer-support">Support</h2>
          <ul>
            <li>
              <Link to="/about">About Us</Link>
            </li>
            <li>
              <Link to="/contact">Contact Us</Link>
            </li>
            <li>
              <Link to="/termsandconditions">Terms and Conditions</Link>
            </li>
            <li>
              <Link to="/returns">Returns and Cancellations</Link>
            </li>
          </ul>
          <h2 id="footer-about">About Us</h2>
          <p className={styles.footerText}>
            Fair-trade instruments from artisans and craftspeople, chosen and set up by musicians.
          </p>
          <p className={styles.footerText}>
            Phone: <a href={telHref(shop.phone)}>{shop.phone}</a>
            <br />
            Email: <a href={`mailto:${shop.email}`}>{shop.email}</a>
            <br />
            Company No. {shop.companyNumber}
          </p>
        </section>
        <section aria-labelledby="footer-address">
          <h2 id="footer-address">Visit Us</h2>
          <address className={styles.footerText}>{shop.address}</address>
          <ShopMap compact />
        </section>
      </div>
      <p className={styles.copyright}>
        © {new Date().getFullYear()} {shop.name}. All rights reserved.
      </p>
    </footer>
  );
}
