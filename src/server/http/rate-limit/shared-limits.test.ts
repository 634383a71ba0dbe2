import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createSecondInstance, createTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';

let usernames = 0;
/** A different address each time, so only the per-client limits count (one account's have their own limit). */
const nextUsername = () => `nobody${++usernames}@example.com`;

/** Rate limits hold across instances: they count in the shared database (docs/decisions/0005-shared-rate-limits.md). */
describe('rate limits shared by two instances on one database', () => {
  let first: TestApp;
  let second: Awaited<ReturnType<typeof createSecondInstance>>;
  beforeAll(async () => {
    first = await createTestApp();
    second = await createSecondInstance(first);
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });
  afterEach(() => vi.useRealTimers());

  const signIn = (app: FastifyInstance, ip: string) =>
    app.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: nextUsername(), password: 'wrong password' },
      remoteAddress: ip,
    });

  it('count sign-in attempts made on either instance against one limit', async () => {
    const ip = '198.51.100.10';
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await signIn(i % 2 ? second.app : first.app, ip)).statusCode);
    expect(statuses.every((status) => status === 401)).toBe(true);
    expect((await signIn(first.app, ip)).statusCode).toBe(429);
    const limited = await signIn(second.app, ip);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(second.app, '198.51.100.11')).statusCode).toBe(401);
  });

  it('let exactly the limit through when both instances are hit at the same moment', async () => {
    const ip = '198.51.100.20';
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(i % 2 ? second.app : first.app, ip)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });

  it('keep each route to its own count, and open again when the window ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const ip = '198.51.100.30';
    for (let i = 0; i < 11; i++) await signIn(first.app, ip);
    expect((await signIn(second.app, ip)).statusCode).toBe(429);
    const contact = await second.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { email: 'a@example.com', name: 'A', phone: '01214960000', message: 'Is the dhol in stock?' },
      remoteAddress: ip,
    });
    expect(contact.statusCode).toBe(200);
    vi.setSystemTime(Date.now() + 61_000);
    expect((await signIn(second.app, ip)).statusCode).toBe(401);
    expect((await signIn(first.app, ip)).statusCode).toBe(401);
  });
});

describe('rate limits behind a reverse proxy', () => {
  const signInFrom = (app: FastifyInstance, forwardedFor: string) =>
    app.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: nextUsername(), password: 'wrong password' },
      remoteAddress: '10.0.0.5',
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('count each shopper by X-Forwarded-For when TRUST_PROXY names the proxy', async () => {
    const t = await createTestApp({ env: { TRUST_PROXY: '10.0.0.0/8' } });
    try {
      for (let i = 0; i < 10; i++) await signInFrom(t.app, '198.51.100.40');
      expect((await signInFrom(t.app, '198.51.100.40')).statusCode).toBe(429);
      expect((await signInFrom(t.app, '198.51.100.41')).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('ignore X-Forwarded-For without TRUST_PROXY, so a client cannot pick its own address', async () => {
    const t = await createTestApp();
    try {
      for (let i = 0; i < 10; i++) await signInFrom(t.app, `198.51.100.${50 + i}`);
      expect((await signInFrom(t.app, '198.51.100.99')).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });
});

describe('rate limits whatever the method', () => {
  it('count HEAD and GET of one route against one limit (HEAD had a budget of its own)', async () => {
    const t = await createTestApp();
    try {
      const ask = (method: 'GET' | 'HEAD') =>
        t.app.inject({ method, url: '/api/recover-basket/AAAAAAAAAAAAAAAAAAAAAA', remoteAddress: '198.51.100.140' });
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await ask('GET')).statusCode);
      expect(statuses.every((status) => status === 404)).toBe(true);
      expect((await ask('GET')).statusCode).toBe(429);
      expect((await ask('HEAD')).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });
});
