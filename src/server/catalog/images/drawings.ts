/**
 * The demo catalogue's product pictures: simple flat drawings, one per kind of instrument, in
 * eight variants (four palettes, two views). Drawn here so the shop owns its artwork outright.
 */

export const imageKinds = [
  'sitar',
  'bowed',
  'santoor',
  'dhol',
  'tabla',
  'dholak',
  'cymbals',
  'drumhead',
  'harmonium',
  'electronic',
  'flute',
  'case',
  'accessory',
  'stand',
] as const;
export type ImageKind = (typeof imageKinds)[number];
export const IMAGE_VARIANTS = 8;

interface Palette {
  background: string;
  wood: string;
  woodDark: string;
  skin: string;
  metal: string;
  accent: string;
}

const palettes: Palette[] = [
  { background: '#fbf1e3', wood: '#a0522d', woodDark: '#6b3318', skin: '#f3e2c3', metal: '#c9a227', accent: '#c0392b' },
  { background: '#eef4f0', wood: '#7b4a2a', woodDark: '#4a2b17', skin: '#efe6d2', metal: '#b08d57', accent: '#1f7a5c' },
  { background: '#f3eefa', wood: '#8d5524', woodDark: '#5a3414', skin: '#f6ead8', metal: '#d4af37', accent: '#6c3fa0' },
  { background: '#fdf6e9', wood: '#b5651d', woodDark: '#7a3f0e', skin: '#fff3dc', metal: '#caa04a', accent: '#1d5fa8' },
];

type Draw = (p: Palette) => string;

const drawings: Record<ImageKind, Draw> = {
  sitar: (p) => `
    <rect x="188" y="40" width="24" height="250" rx="6" fill="${p.wood}"/>
    <circle cx="200" cy="70" r="22" fill="${p.woodDark}"/>
    ${[90, 115, 140, 165, 190, 215, 240].map((y) => `<rect x="186" y="${y}" width="28" height="3" fill="${p.metal}"/>`).join('')}
    <ellipse cx="200" cy="310" rx="78" ry="66" fill="${p.woodDark}"/>
    <ellipse cx="200" cy="300" rx="66" ry="54" fill="${p.wood}"/>
    <rect x="176" y="300" width="48" height="8" rx="2" fill="${p.skin}"/>
    <line x1="196" y1="50" x2="196" y2="304" stroke="${p.metal}" stroke-width="1.5"/>
    <line x1="204" y1="50" x2="204" y2="304" stroke="${p.metal}" stroke-width="1.5"/>
    <circle cx="200" cy="345" r="6" fill="${p.accent}"/>`,
  bowed: (p) => `
    <rect x="190" y="40" width="20" height="120" rx="5" fill="${p.woodDark}"/>
    <path d="M150 160 Q200 130 250 160 L262 300 Q200 350 138 300 Z" fill="${p.wood}"/>
    <ellipse cx="200" cy="260" rx="48" ry="40" fill="${p.skin}"/>
    <rect x="184" y="250" width="32" height="6" fill="${p.woodDark}"/>
    <line x1="195" y1="45" x2="195" y2="300" stroke="${p.metal}" stroke-width="1.5"/>
    <line x1="205" y1="45" x2="205" y2="300" stroke="${p.metal}" stroke-width="1.5"/>
    <path d="M90 330 Q200 300 320 230" stroke="${p.accent}" stroke-width="5" fill="none" stroke-linecap="round"/>`,
  santoor: (p) => `
    <path d="M70 120 L330 120 L290 300 L110 300 Z" fill="${p.wood}" stroke="${p.woodDark}" stroke-width="8"/>
    ${[140, 160, 180, 200, 220, 240, 260, 280].map((y, i) => `<line x1="${78 + i * 4}" y1="${y}" x2="${322 - i * 4}" y2="${y}" stroke="${p.metal}" stroke-width="2"/>`).join('')}
    <rect x="150" y="130" width="6" height="160" fill="${p.skin}"/>
    <rect x="244" y="130" width="6" height="160" fill="${p.skin}"/>
    <line x1="120" y1="330" x2="190" y2="250" stroke="${p.woodDark}" stroke-width="5" stroke-linecap="round"/>
    <line x1="280" y1="330" x2="220" y2="250" stroke="${p.woodDark}" stroke-width="5" stroke-linecap="round"/>`,
  dhol: (p) => `
    <ellipse cx="90" cy="200" rx="30" ry="110" fill="${p.skin}" stroke="${p.woodDark}" stroke-width="8"/>
    <rect x="90" y="90" width="220" height="220" fill="${p.wood}"/>
    <ellipse cx="310" cy="200" rx="30" ry="110" fill="${p.skin}" stroke="${p.woodDark}" stroke-width="8"/>
    ${[110, 150, 190, 230, 270].map((x) => `<path d="M${x} 92 L${x + 40} 308" stroke="${p.accent}" stroke-width="4"/>`).join('')}
    <path d="M110 90 Q200 20 290 90" stroke="${p.woodDark}" stroke-width="6" fill="none"/>
    <line x1="200" y1="340" x2="330" y2="370" stroke="${p.woodDark}" stroke-width="8" stroke-linecap="round"/>`,
  tabla: (p) => `
    <path d="M60 200 L80 330 L170 330 L190 200 Z" fill="${p.wood}"/>
    <ellipse cx="125" cy="200" rx="65" ry="18" fill="${p.skin}"/>
    <ellipse cx="125" cy="200" rx="22" ry="7" fill="#222"/>
    <ellipse cx="280" cy="240" rx="90" ry="90" fill="${p.metal}"/>
    <ellipse cx="280" cy="170" rx="80" ry="22" fill="${p.skin}"/>
    <ellipse cx="262" cy="172" rx="24" ry="8" fill="#222"/>
    ${[75, 95, 115, 135, 155, 175].map((x) => `<line x1="${x}" y1="205" x2="${x + 5}" y2="328" stroke="${p.woodDark}" stroke-width="3"/>`).join('')}
    <ellipse cx="125" cy="340" rx="60" ry="10" fill="${p.accent}"/>
    <ellipse cx="280" cy="335" rx="70" ry="10" fill="${p.accent}"/>`,
  dholak: (p) => `
    <path d="M80 130 Q200 100 320 130 L320 270 Q200 300 80 270 Z" fill="${p.wood}"/>
    <ellipse cx="80" cy="200" rx="22" ry="70" fill="${p.skin}" stroke="${p.woodDark}" stroke-width="6"/>
    <ellipse cx="320" cy="200" rx="26" ry="74" fill="${p.skin}" stroke="${p.woodDark}" stroke-width="6"/>
    ${[100, 140, 180, 220, 260, 300].map((x) => `<line x1="${x}" y1="125" x2="${x}" y2="275" stroke="${p.accent}" stroke-width="3"/>`).join('')}
    ${[120, 200, 280].map((x) => `<circle cx="${x}" cy="200" r="8" fill="${p.metal}"/>`).join('')}`,
  cymbals: (p) => `
    <ellipse cx="140" cy="210" rx="90" ry="30" fill="${p.metal}"/>
    <ellipse cx="140" cy="200" rx="24" ry="9" fill="${p.woodDark}"/>
    <ellipse cx="270" cy="170" rx="90" ry="30" fill="${p.metal}" transform="rotate(-15 270 170)"/>
    <ellipse cx="270" cy="160" rx="24" ry="9" fill="${p.woodDark}" transform="rotate(-15 270 160)"/>
    <path d="M140 190 Q200 80 270 150" stroke="${p.accent}" stroke-width="5" fill="none"/>
    ${[90, 120, 150, 180].map((x) => `<circle cx="${x}" cy="300" r="12" fill="${p.metal}" stroke="${p.woodDark}" stroke-width="2"/>`).join('')}`,
  drumhead: (p) => `
    <circle cx="200" cy="200" r="140" fill="${p.woodDark}"/>
    <circle cx="200" cy="200" r="124" fill="${p.skin}"/>
    <circle cx="200" cy="200" r="46" fill="#222"/>
    <circle cx="200" cy="200" r="60" fill="none" stroke="${p.wood}" stroke-width="3"/>
    ${Array.from({ length: 16 }, (_, i) => {
      const a = (i / 16) * Math.PI * 2;
      return `<circle cx="${(200 + Math.cos(a) * 132).toFixed(1)}" cy="${(200 + Math.sin(a) * 132).toFixed(1)}" r="5" fill="${p.metal}"/>`;
    }).join('')}`,
  harmonium: (p) => `
    <rect x="60" y="120" width="280" height="170" rx="8" fill="${p.wood}"/>
    <rect x="60" y="120" width="280" height="30" fill="${p.woodDark}"/>
    <rect x="80" y="170" width="240" height="70" fill="#fff"/>
    ${Array.from({ length: 16 }, (_, i) => `<line x1="${80 + i * 15}" y1="170" x2="${80 + i * 15}" y2="240" stroke="#999"/>`).join('')}
    ${[0, 1, 3, 4, 5, 7, 8, 10, 11, 12, 14].map((i) => `<rect x="${89 + i * 15}" y="170" width="9" height="42" fill="#222"/>`).join('')}
    ${[100, 140, 180, 220, 260, 300].map((x) => `<circle cx="${x}" cy="135" r="7" fill="${p.metal}"/>`).join('')}
    <path d="M60 260 L340 260 L340 290 L60 290 Z" fill="${p.accent}" opacity="0.8"/>`,
  electronic: (p) => `
    <rect x="80" y="110" width="240" height="180" rx="18" fill="${p.woodDark}"/>
    <rect x="100" y="130" width="140" height="56" rx="6" fill="#1c2b20"/>
    <text x="170" y="167" font-family="monospace" font-size="26" fill="#7CFC9A" text-anchor="middle">Sa C#</text>
    ${[120, 170, 220].map((x) => `<circle cx="${x}" cy="240" r="16" fill="${p.metal}"/>`).join('')}
    <circle cx="280" cy="200" r="26" fill="none" stroke="${p.skin}" stroke-width="6"/>
    <circle cx="280" cy="200" r="8" fill="${p.skin}"/>
    <rect x="260" y="136" width="40" height="10" rx="4" fill="${p.accent}"/>`,
  flute: (p) => `
    <rect x="40" y="185" width="320" height="26" rx="13" fill="${p.wood}" transform="rotate(-12 200 198)"/>
    ${[100, 150, 190, 220, 250, 280, 310].map((x) => `<circle cx="${x}" cy="${198 - (x - 200) * 0.21}" r="6" fill="${p.woodDark}"/>`).join('')}
    ${[60, 340].map((x) => `<rect x="${x - 8}" y="${198 - (x - 200) * 0.21 - 15}" width="16" height="30" fill="${p.accent}" transform="rotate(-12 ${x} ${198 - (x - 200) * 0.21})"/>`).join('')}`,
  case: (p) => `
    <rect x="70" y="130" width="260" height="180" rx="40" fill="${p.accent}"/>
    <rect x="90" y="150" width="220" height="140" rx="30" fill="none" stroke="${p.skin}" stroke-width="4" stroke-dasharray="10 8"/>
    <path d="M160 130 Q200 70 240 130" stroke="${p.woodDark}" stroke-width="12" fill="none"/>
    <rect x="185" y="205" width="30" height="30" rx="4" fill="${p.metal}"/>`,
  accessory: (p) => `
    <circle cx="150" cy="200" r="80" fill="none" stroke="${p.metal}" stroke-width="6"/>
    <circle cx="150" cy="200" r="64" fill="none" stroke="${p.metal}" stroke-width="3"/>
    <rect x="250" y="110" width="28" height="150" rx="6" fill="${p.wood}"/>
    <rect x="236" y="250" width="56" height="50" rx="8" fill="${p.woodDark}"/>
    <circle cx="150" cy="200" r="20" fill="${p.accent}"/>`,
  stand: (p) => `
    <rect x="110" y="150" width="180" height="20" rx="6" fill="${p.woodDark}"/>
    <line x1="130" y1="170" x2="90" y2="330" stroke="${p.wood}" stroke-width="12" stroke-linecap="round"/>
    <line x1="270" y1="170" x2="310" y2="330" stroke="${p.wood}" stroke-width="12" stroke-linecap="round"/>
    <line x1="200" y1="170" x2="200" y2="330" stroke="${p.wood}" stroke-width="12" stroke-linecap="round"/>
    <line x1="105" y1="270" x2="295" y2="270" stroke="${p.metal}" stroke-width="6"/>
    <rect x="120" y="130" width="160" height="20" rx="6" fill="${p.accent}"/>`,
};

export function isImageKind(value: string): value is ImageKind {
  return (imageKinds as readonly string[]).includes(value);
}

/** The SVG for one kind and variant (1 to IMAGE_VARIANTS). */
export function drawProductImage(kind: ImageKind, variant: number): string {
  const palette = palettes[(variant - 1) % palettes.length] as Palette;
  // The second view is a closer, tilted look at the same instrument.
  const closeUp = variant > palettes.length;
  const transform = closeUp ? ' transform="rotate(-8 200 200) translate(-40 -40) scale(1.2)"' : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400" role="img">
<rect width="400" height="400" fill="${palette.background}"/>
<circle cx="200" cy="200" r="180" fill="${palette.accent}" opacity="0.06"/>
<g${transform}>${drawings[kind](palette)}</g>
</svg>`;
}

export function productImageUrl(kind: ImageKind, variant: number): string {
  return `/images/products/${kind}-${variant}.svg`;
}
