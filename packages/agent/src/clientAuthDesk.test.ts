import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientAuthMessage } from '@hublink/contract';
import { CLIENT_AUTH_WAIT_MS, ClientAuthDesk } from './clientAuthDesk';
import { PLATFORM_UNREACHABLE, type ClientAuthAnswer, type ClientAuthRequest } from './openvpn/clientAuth';

/* A center's questions about its clients and the platform's answers, on a fake clock (the desk only times). */
describe('the client authentication desk', () => {
  const request: ClientAuthRequest = { commonName: 'alice', serial: '255', username: '', password: '', orig: '198.51.100.6:41000', reauth: false, platform: 'win', clientVersion: '', sso: 'webauth', hwaddr: '' };
  const sent: ClientAuthMessage[] = [];
  let desk: ClientAuthDesk;
  const result = (id: string, verdict: 'accept' | 'deny' | 'pending', extra: object = {}) => desk.onResult({ type: 'client_auth_result', id, verdict, reason: '', client_reason: '', url: '', timeout: 0, ...extra });
  /** Whether a promise has settled, and with what, after the timers ran. */
  const settled = async <T>(p: Promise<T>) => {
    let value: T | undefined;
    void p.then((v) => (value = v));
    await vi.advanceTimersByTimeAsync(0);
    return value;
  };

  beforeEach(() => {
    vi.useFakeTimers();
    sent.length = 0;
    desk = new ClientAuthDesk((m) => (sent.push(m), true));
  });
  afterEach(() => vi.useRealTimers());

  it('a pending web sign-in outlives the 10 s wait for a first answer and ends with the final answer', async () => {
    const asked = desk.ask('NET1', request);
    const id = sent[0]!.id;
    result(id, 'pending', { url: 'https://hub.example/api/v1/auth_source/vpn?token=t', timeout: 60 });
    const first = (await asked) as Extract<ClientAuthAnswer, { verdict: 'pending' }>;
    expect(first).toMatchObject({ verdict: 'pending', timeout: 60 });
    await vi.advanceTimersByTimeAsync(CLIENT_AUTH_WAIT_MS * 3);
    expect(await settled(first.final)).toBeUndefined();
    result(id, 'accept');
    expect(await settled(first.final)).toEqual({ verdict: 'accept' });
  });

  it('refuses when the final answer does not come within the pending time and a grace', async () => {
    const asked = desk.ask('NET1', request);
    result(sent[0]!.id, 'pending', { url: 'https://hub.example/x', timeout: 60 });
    const first = (await asked) as Extract<ClientAuthAnswer, { verdict: 'pending' }>;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await settled(first.final)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await settled(first.final)).toMatchObject({ verdict: 'deny', clientReason: PLATFORM_UNREACHABLE });
  });

  it('refuses a question with no first answer within 10 s, and a second pending as a refusal', async () => {
    const silent = desk.ask('NET1', request);
    await vi.advanceTimersByTimeAsync(CLIENT_AUTH_WAIT_MS);
    expect(await settled(silent)).toMatchObject({ verdict: 'deny', clientReason: PLATFORM_UNREACHABLE });
    const asked = desk.ask('NET1', request);
    const id = sent[1]!.id;
    result(id, 'pending', { url: 'https://hub.example/x', timeout: 60 });
    const first = (await asked) as Extract<ClientAuthAnswer, { verdict: 'pending' }>;
    result(id, 'pending', { url: 'https://hub.example/y', timeout: 60 });
    expect(await settled(first.final)).toMatchObject({ verdict: 'deny' });
  });
});
