import { useState } from 'react';
import { shop } from '../../lib/shop.ts';
import styles from './shop-map.module.css';

/**
 * The shop's map. It starts as a drawn placeholder with the address and loads OpenStreetMap only
 * when asked: nothing is fetched from a third party without a click, and offline the address and
 * a link remain.
 */
export function ShopMap({ compact = false }: { compact?: boolean }) {
  const [live, setLive] = useState(false);
  const { mapLatitude: lat, mapLongitude: lon } = shop;
  const d = 0.006;
  const embed = `https://www.openstreetmap.org/export/embed.html?bbox=${lon - d}%2C${lat - d / 2}%2C${lon + d}%2C${lat + d / 2}&layer=mapnik&marker=${lat}%2C${lon}`;
  const link = `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
  return (
    <div className={`${styles.map} ${compact ? styles.compact : ''}`}>
      {live ? (
        <iframe title={`Map showing ${shop.name}`} src={embed} className={styles.frame} loading="lazy" />
      ) : (
        <div className={styles.placeholder}>
          <svg viewBox="0 0 320 160" aria-hidden="true" className={styles.art}>
            <rect width="320" height="160" fill="#efe4d6" />
            <path d="M0 110 L320 70" stroke="#fff" strokeWidth="14" />
            <path d="M90 0 L130 160" stroke="#fff" strokeWidth="10" />
            <path d="M220 0 L200 160" stroke="#fff" strokeWidth="8" />
            <rect x="140" y="20" width="50" height="35" fill="#d9c7b3" />
            <rect x="235" y="95" width="60" height="40" fill="#d9c7b3" />
            <path d="M160 60 C160 44 184 44 184 60 C184 72 172 84 172 92 C172 84 160 72 160 60 Z" fill="#b91c1c" />
            <circle cx="172" cy="60" r="5" fill="#fff" />
          </svg>
          <button type="button" className={`button button-secondary ${styles.show}`} onClick={() => setLive(true)}>
            Show the map
          </button>
        </div>
      )}
      <a href={link} className={styles.link} target="_blank" rel="noopener noreferrer">
        Open in OpenStreetMap<span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    </div>
  );
}
