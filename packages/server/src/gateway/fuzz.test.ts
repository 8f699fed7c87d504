import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { DEVICE_CLOSE, DEVICE_MESSAGE_TYPES } from '@hublink/contract';
import { TestDevice, routerHello } from '../../test/device';
import { hostile } from '../../test/fuzz';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, seedFreshMembers } from '../../test/networks';
import { until } from '../../test/until';

/** Codes a hostile message may end a session with; anything else (1011 internal error) is a bug. */
const EXPECTED = new Set<number>([DEVICE_CLOSE.protocolError, DEVICE_CLOSE.helloExpected, DEVICE_CLOSE.authFailed, DEVICE_CLOSE.tooBig]);

const message = fc.oneof(
  hostile,
  fc.record({ type: fc.constantFrom(...DEVICE_MESSAGE_TYPES, 'future_type'), links: hostile, data: hostile, id: hostile, event: hostile, command_id: hostile, ok: hostile }, { requiredKeys: ['type'] }),
  fc.jsonValue(),
);

describeEachDatabase('device gateway under hostile messages', (t) => {
  let base = '';
  let router = '';
  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
    const a = await newAccount(t());
    [router = ''] = await seedFreshMembers(t(), a.account.id, 1);
  });

  it('answers any message after hello with the protocol or a protocol close, never an internal error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 4 }), async (messages) => {
        const d = await TestDevice.open(base);
        d.send(routerHello(router, SEEDED_MEMBER_SECRET));
        await d.next('welcome');
        for (const m of messages) d.socket.send(typeof m === 'string' ? m : JSON.stringify(m));
        d.send({ type: 'ping' });
        // Either it is still talking (the ping answered after the junk) or it closed for a reason of the protocol.
        await until(() => d.closed !== undefined || d.received.some((r) => r.type === 'pong'), 'a pong or a close');
        if (d.closed) expect(EXPECTED).toContain(d.closed.code);
        else d.close();
        await d.closedWith();
      }),
      { numRuns: 40 },
    );
  });

  it('refuses hostile hellos without an internal error', async () => {
    await fc.assert(
      fc.asyncProperty(message, async (m) => {
        const d = await TestDevice.open(base);
        d.socket.send(typeof m === 'string' ? m : JSON.stringify(m));
        const closed = await d.closedWith();
        expect(EXPECTED).toContain(closed.code);
      }),
      { numRuns: 40 },
    );
  });
});
