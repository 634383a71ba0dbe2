import { describe, expect, it } from 'vitest';
import { clientKeyOf } from './client-address.ts';

describe('the address a client is counted by', () => {
  it('counts an IPv6 client by its /64, however the address is written', () => {
    expect(clientKeyOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:0DB8:0001:0002:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(clientKeyOf('2001:db8:1:3::1')).not.toBe(clientKeyOf('2001:db8:1:2::1'));
  });

  it('keeps IPv4 addresses whole, also when written as IPv6', () => {
    expect(clientKeyOf('198.51.100.7')).toBe('198.51.100.7');
    expect(clientKeyOf('::ffff:198.51.100.7')).toBe('198.51.100.7');
  });
});
