import type { AddressInfo } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { DEVICE_CLOSE } from '@hublink/contract';
import { TestDevice, parallelHellos, routerHello } from '../../test/device';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, seedFreshMembers } from '../../test/networks';
import { DEVICE_AUTH_LIMITS, DEVICE_CONNECTION_LIMIT } from './auth';

// Every secret check is counted before it is made (issue 32): parallel wrong hellos, all sent before
// the first is answered, get at most the limit in checks; the rest are refused without one.
describeEachDatabase('device sign-in limits under concurrency', (t) => {
  let base: string;
  let tenant: number;
  const ip = '127.0.0.1';
  const count = (limit: { name: string }, subject: string) => t().ctx.store.get(`rl:${limit.name}:${subject}`);

  beforeAll(async () => {
    await t().app.listen({ port: 0, host: ip });
    base = `http://${ip}:${(t().app.server.address() as AddressInfo).port}`;
    tenant = (await newAccount(t())).account.id;
  });

  it('30 parallel wrong secrets for one router: at most 10 are checked, the rest refused as too many', async () => {
    const [victim = ''] = await seedFreshMembers(t(), tenant, 1);
    const codes = await parallelHellos([base], Array.from({ length: 30 }, (_, i) => routerHello(victim, `guess-${i}`)));
    expect(codes.get(DEVICE_CLOSE.authFailed)).toBe(DEVICE_AUTH_LIMITS.perMember.max);
    expect(codes.get(DEVICE_CLOSE.tooManyAttempts)).toBe(30 - DEVICE_AUTH_LIMITS.perMember.max);
    expect(await count(DEVICE_AUTH_LIMITS.perMember, `r:${victim.toLowerCase()}`)).toBe(String(DEVICE_AUTH_LIMITS.perMember.max));
    await t().ctx.limiter.reset(DEVICE_AUTH_LIMITS.perIp, ip);
  });

  it('300 parallel wrong hellos from one address: at most 200 are checked', async () => {
    const codes = await parallelHellos([base], Array.from({ length: 300 }, (_, i) => routerHello(`nosuch-${i}`, 'guess')));
    expect(codes.get(DEVICE_CLOSE.authFailed)).toBe(DEVICE_AUTH_LIMITS.perIp.max);
    expect(codes.get(DEVICE_CLOSE.tooManyAttempts)).toBe(300 - DEVICE_AUTH_LIMITS.perIp.max);
    expect(await count(DEVICE_AUTH_LIMITS.perIp, ip)).toBe(String(DEVICE_AUTH_LIMITS.perIp.max));
    await t().ctx.limiter.reset(DEVICE_AUTH_LIMITS.perIp, ip);
  });

  it('a proven secret gives its count back: only the failures stay counted', async () => {
    const [member = ''] = await seedFreshMembers(t(), tenant, 1);
    const codes = await parallelHellos([base], [routerHello(member, 'wrong-1'), routerHello(member, 'wrong-2')]);
    expect(codes.get(DEVICE_CLOSE.authFailed)).toBe(2);
    expect(await count(DEVICE_AUTH_LIMITS.perIp, ip)).toBe('2');
    const d = await TestDevice.open(base);
    d.send(routerHello(member, SEEDED_MEMBER_SECRET));
    await d.next('welcome');
    d.close();
    expect(await count(DEVICE_AUTH_LIMITS.perIp, ip)).toBe('2');
    // and the member's failures are forgotten.
    expect(await count(DEVICE_AUTH_LIMITS.perMember, `r:${member.toLowerCase()}`)).toBeNull();
    await t().ctx.limiter.reset(DEVICE_AUTH_LIMITS.perIp, ip);
  });

  it('an address past its connection rate is closed before its hello is read', async () => {
    const [member = ''] = await seedFreshMembers(t(), tenant, 1);
    await t().ctx.store.set(`rl:${DEVICE_CONNECTION_LIMIT.name}:${ip}`, String(DEVICE_CONNECTION_LIMIT.max), DEVICE_CONNECTION_LIMIT.windowSeconds);
    try {
      const d = await TestDevice.open(base);
      d.send(routerHello(member, SEEDED_MEMBER_SECRET));
      expect((await d.closedWith()).code).toBe(DEVICE_CLOSE.tooManyAttempts);
      expect(d.received.some((m) => m.type === 'welcome')).toBe(false);
    } finally {
      await t().ctx.store.del(`rl:${DEVICE_CONNECTION_LIMIT.name}:${ip}`);
    }
    const d = await TestDevice.open(base);
    d.send(routerHello(member, SEEDED_MEMBER_SECRET));
    await d.next('welcome');
    d.close();
  });
});
