import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { createNetworkThroughApi, seedFreshMembers } from '../../test/networks';
import { configsOf, networkConfigsOf } from './configs';

describeEachDatabase('the configs a delivery sends', (t) => {
  it('reads many members of a network at once as it reads each alone, certificates made where the PKI lags', async () => {
    const a = await newAccount(t());
    const [center, ...points] = await seedFreshMembers(t(), a.account.id, 6);
    const networkNumber = await createNetworkThroughApi(t(), a.token, { center: [center!], point: points });
    await t().ctx.events.settle();
    const network = await t().db.selectFrom('network').select('id').where('network_number', '=', networkNumber).executeTakeFirstOrThrow();
    const members = await t().db.selectFrom('network_member').select('member_id').where('network_id', '=', network.id).orderBy('member_id').execute();
    const ids = members.map((m) => m.member_id);
    // One point's certificate is gone as if its network's PKI event had not run yet: the read makes it.
    await t().db.deleteFrom('member_certificate').where('network_id', '=', network.id).where('member_id', '=', ids[3]!).execute();

    const many = await networkConfigsOf(t().ctx, a.account.id, network.id, ids);
    expect([...many.keys()].sort((x, y) => x - y)).toEqual(ids);
    for (const id of ids) {
      const [alone] = await configsOf(t().ctx, a.account.id, id, [network.id]);
      expect(many.get(id)).toEqual(alone);
      expect(alone!.payload.certificates?.['member.key']).toContain('PRIVATE KEY');
    }
    expect(many.get(ids[0]!)!.payload.certificates?.['crl.pem']).toContain('BEGIN X509 CRL');
    expect(many.get(ids[1]!)!.payload.certificates?.['crl.pem']).toBeUndefined();

    // Another tenant's ids, or a member outside the network, give nothing.
    const other = await newAccount(t());
    expect((await networkConfigsOf(t().ctx, other.account.id, network.id, ids)).size).toBe(0);
    expect((await networkConfigsOf(t().ctx, a.account.id, network.id, [])).size).toBe(0);
  });
});
