import { Secret, TOTP } from 'otpauth';
import bwipjs from 'bwip-js';

/**
 * Two-factor sign-in codes (RFC 6238: SHA-1, six digits, 30 seconds, as every authenticator app
 * reads them). A code is accepted one step either side of now, for a phone's clock that is a little off.
 */
const PERIOD_SECONDS = 30;

function totpOf(secret: string, label = 'staff', issuer = 'Shop') {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// address an authenticator app scans or is given. */
export function totpUrl(secret: string, account: string, issuer: string): string {
  return totpOf(secret, account, issuer).toString();
}

/** The time step the code belongs to, or undefined when it is not a current code for the secret. */
export function totpStepOf(secret: string, code: string, now: Date): number | undefined {
  const totp = totpOf(secret);
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? undefined : totp.counter({ timestamp: now.getTime() }) + delta;
}

/** The code for a moment (tests sign in with it, as an authenticator app would). */
export function totpCodeAt(secret: string, at: Date): string {
  return totpOf(secret).generate({ timestamp: at.getTime() });
}

/**
 * The otpauth:// address as a QR code, an SVG drawn on the server with bwip-js (already the
 * packing slips' barcode library, so nothing is added to the image), for an authenticator app to
 * scan off the screen. Error correction M (BWIPP's default); dark on white, with a quiet zone of
 * four modules (a module is 2 units).
 */
export function totpQrSvg(otpauthUrl: string): string {
  return bwipjs
    .toSVG({
      bcid: 'qrcode',
      text: otpauthUrl,
      scale: 1,
      padding: 8,
      backgroundcolor: 'FFFFFF',
    })
    .trim();
}
