/**
 * Tracking pages of the carriers UK shops use most (docs/back-office.md#orders). A carrier not
 * listed is kept as staff typed it, and its dispatch e-mail gives the number without a link.
 */
const trackingPages: Record<string, (number: string) => string> = {
  'royal mail': (n) => `https://www.royalmail.com/track-your-item#/tracking-results/${n}`,
  parcelforce: (n) => `https://www.parcelforce.com/track-trace?trackNumber=${n}`,
  dpd: (n) => `https://track.dpd.co.uk/parcels/${n}`,
  evri: (n) => `https://www.evri.com/track/parcel/${n}`,
  dhl: (n) => `https://www.dhl.com/gb-en/home/tracking/tracking-express.html?submit=1&tracking-id=${n}`,
  ups: (n) => `https://www.ups.com/track?tracknum=${n}`,
};

export function trackingUrlFor(carrier: string | null, trackingNumber: string | null): string | null {
  if (!carrier || !trackingNumber) return null;
  const page = trackingPages[carrier.trim().toLowerCase()];
  return page ? page(encodeURIComponent(trackingNumber.replace(/\s+/g, ''))) : null;
}
