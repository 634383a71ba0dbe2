import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { homeSections as sections } from '../../../contract/catalog-rules.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { shop } from '../../lib/shop.ts';
import { ProductGrid } from '../../ui/product-grid/product-grid.tsx';
import { randomProductsQueryOptions } from './api/get-random-products.ts';
import { CraftArt, DeliveryArt, DholArt, HarmoniumArt, SitarArt, TablaArt } from './art.tsx';
import { BannerSlider } from './banner-slider.tsx';
import styles from './home.module.css';

const adverts = [
  { typeId: 2035, title: 'Tablas', text: 'Copper, brass and steel bayans', Art: TablaArt },
  { typeId: 2010, title: 'Dhols', text: 'For bhangra and the baraat', Art: DholArt },
  { typeId: 2017, title: 'Harmoniums', text: 'Portable, folding, scale changer', Art: HarmoniumArt },
  { typeId: 1001, title: 'String Instruments', text: 'Sitars, tanpuras, santoor', Art: SitarArt },
];

export default function HomePage() {
  const loads = useQueries({ queries: sections.map((section) => randomProductsQueryOptions(section.typeId)) });

  return (
    <>
      <PageMeta
        title={`Welcome to ${shop.name}: Indian Musical Instruments`}
        description="Dhols, tablas, harmoniums, sitars and more, hand-made by artisans and delivered across the UK."
        canonicalPath="/"
      />
      <h1 className="visually-hidden">Welcome to {shop.name}</h1>
      <BannerSlider />
      <div className="container">
        <ul className={styles.adverts} aria-label="Shop by category">
          {adverts.map(({ typeId, title, text, Art }) => (
            <li key={typeId}>
              <Link to={`/search?t=${typeId}`} className={styles.advert}>
                <Art className={styles.advertArt} />
                <span className={styles.advertTitle}>{title}</span>
                <span className={styles.advertText}>{text}</span>
              </Link>
            </li>
          ))}
        </ul>

        {sections.map((section, i) => {
          const products = loads[i]?.data;
          // docs/rules.md#pages-and-routes: a section whose products fail to load is left out silently.
          if (!products || products.length === 0) return null;
          const headingId = `home-section-${section.typeId}`;
          return (
            <section key={section.title} className={styles.section} aria-labelledby={headingId}>
              <div className={styles.sectionHead}>
                <h2 id={headingId}>{section.title}</h2>
                <Link to={`/search?t=${section.viewMore}`} className="button button-secondary">
                  VIEW MORE<span className="visually-hidden"> {section.title.toLowerCase()}</span>
                </Link>
              </div>
              <ProductGrid products={products} />
            </section>
          );
        })}

        <section className={styles.services} aria-label="Our service">
          <div className={styles.service}>
            <DeliveryArt />
            <div>
              <h2>Fast UK delivery</h2>
              <p>We aim to deliver in 3 working days, with every instrument checked and tuned before it leaves us.</p>
            </div>
          </div>
          <div className={styles.service}>
            <CraftArt />
            <div>
              <h2>Fair trade, hand-made</h2>
              <p>Our instruments come from artisans and craftspeople who are paid fairly for their work.</p>
            </div>
          </div>
        </section>
      </div>
    </>
  );
}
