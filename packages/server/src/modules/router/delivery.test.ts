import { expect, it } from 'vitest';
import { networkDelivery, setDns } from '@hublink/contract';
import { describeEachDatabase, newAccount } from '../../../test/helpers';
import { createNetworkThroughApi, seedFreshMembers } from '../../../test/networks';

/*
 * GET /network/delivery reads the last change by index and keeps it while nothing about its members
 * moved (issue 34); every acknowledgement, failure or new change must still show at once.
 */
describeEachDatabase('network delivery', (t) => {
  it('counts the members behind and the last change, and follows each acknowledgement and failure', async () => {
    const a = await newAccount(t());
    const names = await seedFreshMembers(t(), a.account.id, 4);
    const network_number = await createNetworkThroughApi(t(), a.token, { center: names.slice(0, 1), point: names.slice(1) });
    await t().ctx.events.settle();
    const net = await t().db.selectFrom('network').select('id').where('network_number', '=', network_number).executeTakeFirstOrThrow();
    const configs = () => t().db.selectFrom('member_config').select(['member_id', 'version', 'update_time']).where('network_id', '=', net.id).orderBy('member_id').execute();
    const ask = async () => {
      const res = await t().call(networkDelivery, { token: a.token, query: { network_number } });
      expect(res.code).toBe(200);
      return res.data!;
    };
    const ack = (c: { member_id: number; version: number; update_time: number }, took: number, ok = true) =>
      // As the gateway stamps a device's acknowledgement (gateway/applied.ts).
      t()
        .db.updateTable('member_config')
        .set({ applied_version: c.version, applied_error: ok ? '' : '隧道未建立', applied_time: ok ? Number(c.update_time) + took : null })
        .where('network_id', '=', net.id)
        .where('member_id', '=', c.member_id)
        .execute();

    const rows = await configs();
    expect(rows).toHaveLength(4);
    expect(await ask()).toMatchObject({ behind_count: 4, last_change: { members: 4, acknowledged: 0, p50_seconds: null } });
    await ack(rows[0]!, 1_000);
    expect(await ask()).toMatchObject({ behind_count: 3, last_change: { members: 4, acknowledged: 1, p50_seconds: 1, p95_seconds: 1 } });
    // Asked again with nothing moved: the same answer.
    expect(await ask()).toMatchObject({ behind_count: 3, last_change: { acknowledged: 1 } });
    for (const [i, c] of rows.slice(1).entries()) await ack(c, 2_000 + i * 1_000);
    expect(await ask()).toMatchObject({ behind: [], behind_count: 0, last_change: { members: 4, acknowledged: 4, p50_seconds: 2, p95_seconds: 4 } });
    // A device that fails to apply its version is behind again, and no longer counts as acknowledged.
    await ack(rows[2]!, 5_000, false);
    const failed = await ask();
    expect(failed).toMatchObject({ behind_count: 1, last_change: { members: 4, acknowledged: 3 } });
    expect(failed.behind[0]).toMatchObject({ applied_error: '隧道未建立' });

    // A new change is the last change at once, whatever was known of the one before.
    expect((await t().call(setDns, { token: a.token, body: { network_number, dns: ['119.29.29.29'] } })).code).toBe(200);
    await t().ctx.events.settle();
    const d = await ask();
    expect(d.behind_count).toBe(4);
    expect(d.last_change).toMatchObject({ members: 4, acknowledged: 0 });

    // Another tenant sees nothing of it.
    const other = await newAccount(t());
    expect((await t().call(networkDelivery, { token: other.token, query: { network_number } })).code).toBe(204);
  });
});
