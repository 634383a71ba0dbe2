import { Secret, TOTP } from 'otpauth';
import qrcode from 'qrcode-generator';

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
 * The otpauth:// address as a QR code, an SVG drawn on the server (qrcode-generator: no
 * dependencies, a few tens of kB), so an authenticator app can scan it off the screen.
 */
export function totpQrSvg(otpauthUrl: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(otpauthUrl);
  qr.make();
  return qr.createSvgTag({ cellSize: 4, margin: 4, scalable: true });
}
