import { isIPv4, isIPv6 } from 'node:net';

/**
 * The address a client is counted by in the limits: an IPv4 address as it is, and an IPv6 address
 * by its /64 network, since one subscriber is usually given a whole /64 and could otherwise
 * count as millions of clients. An IPv4 address written as IPv6 (`::ffff:1.2.3.4`) is the IPv4 one.
 */
export function clientKeyOf(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (isIPv4(ip) || !isIPv6(ip)) return ip.toLowerCase();
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
