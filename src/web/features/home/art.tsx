/** The home page's own artwork: flat drawings of instruments, decorative (alt text is on the links). */

export function DholArt({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 400 300" className={className} aria-hidden="true" focusable="false">
      <ellipse cx="95" cy="150" rx="32" ry="100" fill="#f3e2c3" stroke="#6b3318" strokeWidth="8" />
      <rect x="95" y="50" width="210" height="200" fill="#a0522d" />
      <ellipse cx="305" cy="150" rx="32" ry="100" fill="#f3e2c3" stroke="#6b3318" strokeWidth="8" />
      {[115, 155, 195, 235].map((x) => (
        <path key={x} d={`M${x} 52 L${x + 40} 248`} stroke="#f6c453" strokeWidth="5" />
      ))}
      <path d="M120 50 Q200 -10 280 50" stroke="#6b3318" strokeWidth="7" fill="none" />
    </svg>
  );
}

export function TablaArt({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 400 300" className={className} aria-hidden="true" focusable="false">
      <path d="M70 120 L90 260 L180 260 L200 120 Z" fill="#8d5524" />
      <ellipse cx="135" cy="120" rx="65" ry="18" fill="#f6ead8" />
      <ellipse cx="135" cy="120" rx="22" ry="7" fill="#222" />
      <circle cx="285" cy="185" r="85" fill="#c9a227" />
      <ellipse cx="285" cy="112" rx="78" ry="22" fill="#f6ead8" />
      <ellipse cx="268" cy="114" rx="24" ry="8" fill="#222" />
      <ellipse cx="135" cy="270" rx="60" ry="10" fill="#c0392b" />
      <ellipse cx="285" cy="270" rx="70" ry="10" fill="#c0392b" />
    </svg>
  );
}

export function HarmoniumArt({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 400 300" className={className} aria-hidden="true" focusable="false">
      <rect x="50" y="70" width="300" height="170" rx="10" fill="#7b4a2a" />
      <rect x="50" y="70" width="300" height="32" fill="#4a2b17" />
      <rect x="72" y="122" width="256" height="70" fill="#fff" />
      {Array.from({ length: 17 }, (_, i) => (
        <line key={i} x1={72 + i * 16} y1="122" x2={72 + i * 16} y2="192" stroke="#999" />
      ))}
      {[0, 1, 3, 4, 5, 7, 8, 10, 11, 12, 14].map((i) => (
        <rect key={i} x={82 + i * 16} y="122" width="9" height="42" fill="#222" />
      ))}
      <rect x="50" y="205" width="300" height="35" fill="#1f7a5c" />
    </svg>
  );
}

export function SitarArt({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 400 300" className={className} aria-hidden="true" focusable="false">
      <g transform="rotate(-60 200 150)">
        <rect x="188" y="-40" width="24" height="230" rx="6" fill="#b5651d" />
        <circle cx="200" cy="-10" r="20" fill="#7a3f0e" />
        {[10, 35, 60, 85, 110, 135].map((y) => (
          <rect key={y} x="186" y={y} width="28" height="3" fill="#caa04a" />
        ))}
        <ellipse cx="200" cy="230" rx="78" ry="66" fill="#7a3f0e" />
        <ellipse cx="200" cy="220" rx="66" ry="54" fill="#b5651d" />
      </g>
    </svg>
  );
}

export function BannerArt({ variant }: { variant: 1 | 2 }) {
  const [from, to] = variant === 1 ? ['#5e1f08', '#b5651d'] : ['#1f3b2f', '#1f7a5c'];
  return (
    <svg viewBox="0 0 1200 420" preserveAspectRatio="xMidYMid slice" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={`banner-${variant}`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={from} />
          <stop offset="1" stopColor={to} />
        </linearGradient>
      </defs>
      <rect width="1200" height="420" fill={`url(#banner-${variant})`} />
      {Array.from({ length: 9 }, (_, i) => (
        <circle key={i} cx={700 + (i % 3) * 170} cy={60 + Math.floor(i / 3) * 150} r="70" fill="#fff" opacity="0.05" />
      ))}
      <g transform={variant === 1 ? 'translate(720 60) scale(1.15)' : 'translate(700 70) scale(1.1)'}>
        {variant === 1 ? <DholShapes /> : <HarmoniumShapes />}
      </g>
    </svg>
  );
}

function DholShapes() {
  return (
    <>
      <ellipse cx="60" cy="130" rx="32" ry="110" fill="#f3e2c3" stroke="#3b1405" strokeWidth="8" />
      <rect x="60" y="20" width="240" height="220" fill="#c0612b" />
      <ellipse cx="300" cy="130" rx="32" ry="110" fill="#f3e2c3" stroke="#3b1405" strokeWidth="8" />
      {[80, 125, 170, 215, 255].map((x) => (
        <path key={x} d={`M${x} 22 L${x + 40} 238`} stroke="#f6c453" strokeWidth="6" />
      ))}
    </>
  );
}

function HarmoniumShapes() {
  return (
    <>
      <rect x="0" y="40" width="340" height="190" rx="12" fill="#8d5524" />
      <rect x="0" y="40" width="340" height="36" fill="#5a3414" />
      <rect x="24" y="100" width="292" height="80" fill="#fff" />
      {Array.from({ length: 19 }, (_, i) => (
        <line key={i} x1={24 + i * 16} y1="100" x2={24 + i * 16} y2="180" stroke="#999" />
      ))}
      {[0, 1, 3, 4, 5, 7, 8, 10, 11, 12, 14, 15, 17].map((i) => (
        <rect key={i} x={34 + i * 16} y="100" width="9" height="48" fill="#222" />
      ))}
    </>
  );
}

export function DeliveryArt() {
  return (
    <svg viewBox="0 0 120 80" aria-hidden="true" focusable="false">
      <rect x="5" y="20" width="65" height="40" rx="4" fill="#8a2f0f" />
      <path d="M70 32 H95 L112 48 V60 H70 Z" fill="#b5651d" />
      <circle cx="28" cy="64" r="10" fill="#2a1d17" />
      <circle cx="92" cy="64" r="10" fill="#2a1d17" />
      <rect x="80" y="36" width="14" height="10" fill="#fbeee2" />
    </svg>
  );
}

export function CraftArt() {
  return (
    <svg viewBox="0 0 120 80" aria-hidden="true" focusable="false">
      <path d="M60 10 L75 40 L108 44 L83 64 L90 78 L60 66 L30 78 L37 64 L12 44 L45 40 Z" fill="#1f7a5c" />
      <circle cx="60" cy="46" r="12" fill="#fbeee2" />
    </svg>
  );
}
