import { afterEach, describe, expect, it, vi } from 'vitest';
import { prefetch, takePrefetched } from './prefetch';

describe('a first GET started with the route', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const started = () => {
    const fetch = vi.fn(() => Promise.resolve(new Response('{"code":200}')));
    vi.stubGlobal('fetch', fetch);
    return fetch;
  };

  it('is taken once by the call to the same address with the same token', async () => {
    const fetch = started();
    prefetch('/api/v1/network/info?network_number=N1', { Authorization: 'Bearer a' }, 10_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(takePrefetched('/api/v1/network/info?network_number=N2', { Authorization: 'Bearer a' })).toBeUndefined();
    const answer = takePrefetched('/api/v1/network/info?network_number=N1', { Authorization: 'Bearer a' });
    expect(await (await answer!).json()).toEqual({ code: 200 });
    expect(takePrefetched('/api/v1/network/info?network_number=N1', { Authorization: 'Bearer a' })).toBeUndefined();
  });

  it('is not taken with another token (refreshed since) nor after ten seconds', () => {
    started();
    vi.useFakeTimers();
    prefetch('/api/v1/account/info', { Authorization: 'Bearer a' }, 10_000);
    expect(takePrefetched('/api/v1/account/info', { Authorization: 'Bearer b' })).toBeUndefined();
    prefetch('/api/v1/account/info', { Authorization: 'Bearer a' }, 10_000);
    vi.advanceTimersByTime(10_001);
    expect(takePrefetched('/api/v1/account/info', { Authorization: 'Bearer a' })).toBeUndefined();
  });
});

describe('calls that ask while the first GET is under way', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('join it, each with its own copy of the answer; once it has come and been taken, the next call asks the server', async () => {
    let answer!: (r: Response) => void;
    const fetch = vi.fn(() => new Promise<Response>((r) => (answer = r)));
    vi.stubGlobal('fetch', fetch);
    prefetch('/api/v1/account/info', { Authorization: 'Bearer a' }, 10_000);
    const first = takePrefetched('/api/v1/account/info', { Authorization: 'Bearer a' });
    const second = takePrefetched('/api/v1/account/info', { Authorization: 'Bearer a' });
    answer(new Response('{"code":200,"data":{"nickname":"n"}}'));
    expect(await (await first!).json()).toEqual({ code: 200, data: { nickname: 'n' } });
    expect(await (await second!).json()).toEqual({ code: 200, data: { nickname: 'n' } });
    expect(takePrefetched('/api/v1/account/info', { Authorization: 'Bearer a' })).toBeUndefined();
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
