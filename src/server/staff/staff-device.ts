import { deviceMark } from '../http/device-mark.ts';

/**
 * The mark of a browser that has signed in to a staff account before (http/device-mark.ts,
 * docs/back-office.md#security): `__Host-admin-device` in production.
 */
export function staffDeviceMark(options: { secret: string; secure: boolean }) {
  return deviceMark({ purpose: 'staff-device', cookie: 'admin-device', ...options });
}
