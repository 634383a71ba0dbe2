import { PageMeta } from '../../lib/page-meta.tsx';
import { shop } from '../../lib/shop.ts';
import styles from './about.module.css';

function Workshop() {
  return (
    <svg viewBox="0 0 400 260" aria-hidden="true" focusable="false">
      <rect width="400" height="260" fill="#fbeee2" />
      <rect x="40" y="150" width="320" height="20" fill="#6b3318" />
      <rect x="70" y="170" width="16" height="70" fill="#6b3318" />
      <rect x="314" y="170" width="16" height="70" fill="#6b3318" />
      <ellipse cx="150" cy="120" rx="60" ry="30" fill="#a0522d" />
      <ellipse cx="150" cy="120" rx="20" ry="30" fill="#f3e2c3" />
      <path d="M240 60 L300 140" stroke="#c9a227" strokeWidth="10" strokeLinecap="round" />
      <rect x="290" y="130" width="30" height="16" fill="#6b3318" transform="rotate(50 305 138)" />
    </svg>
  );
}

function World() {
  return (
    <svg viewBox="0 0 400 260" aria-hidden="true" focusable="false">
      <rect width="400" height="260" fill="#eef4f0" />
      <circle cx="200" cy="130" r="95" fill="#1f7a5c" />
      <path d="M140 80 Q180 60 210 90 T260 110 Q250 150 210 160 T150 170 Q120 130 140 80Z" fill="#9fd3b5" />
      <path d="M60 200 Q200 60 340 200" stroke="#b5651d" strokeWidth="5" fill="none" strokeDasharray="12 10" />
    </svg>
  );
}

function Team() {
  return (
    <svg viewBox="0 0 400 260" aria-hidden="true" focusable="false">
      <rect width="400" height="260" fill="#f3eefa" />
      {[110, 200, 290].map((x, i) => (
        <g key={x}>
          <circle cx={x} cy="100" r="32" fill={['#8d5524', '#b5651d', '#7b4a2a'][i]} />
          <rect x={x - 45} y="140" width="90" height="80" rx="40" fill={['#6c3fa0', '#1d5fa8', '#c0392b'][i]} />
        </g>
      ))}
    </svg>
  );
}

/** About Us (docs/rules.md#pages-and-routes): the shop's vision, in three illustrated sections. */
export default function AboutPage() {
  return (
    <div className="container page">
      <PageMeta title="About Us" canonicalPath="/about" />
      <h1 className="page-title">About Us</h1>
      <p className={styles.lead}>
        {shop.name} brings the instruments of India to musicians across the United Kingdom: from the first tabla lesson
        to the concert stage, from a family wedding to a gurdwara kirtan.
      </p>
      <section className={styles.section}>
        <Workshop />
        <div>
          <h2>Made by hand, traded fairly</h2>
          <p>
            Our dhols, tablas, harmoniums and sitars are fair-trade goods, made by artisans and craftspeople whose
            families have built instruments for generations. We buy directly from their workshops in Punjab, Kolkata,
            Delhi and Kashmir and pay a fair price for their skill.
          </p>
        </div>
      </section>
      <section className={styles.section}>
        <World />
        <div>
          <h2>Our vision</h2>
          <p>
            We want to offer high quality products worldwide at low prices, with a wide selection to choose from and
            fast, reliable delivery. Every instrument is checked, tuned and set up before it leaves us, so it is ready
            to play the day it arrives.
          </p>
        </div>
      </section>
      <section className={styles.section}>
        <Team />
        <div>
          <h2>People who play</h2>
          <p>
            Our staff are trained musicians and technicians. Ask us which harmonium suits a beginner, how to tune a
            bolt-tuned dhol, or which tabla set will match your voice: we are happy to help by phone, by e-mail or in
            our shop.
          </p>
        </div>
      </section>
    </div>
  );
}
