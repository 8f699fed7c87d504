import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { createNetworkThroughApi, seedFreshMembers } from '../../test/networks';
import { configsOf, networkConfigsOf, type HeldConfig } from './configs';

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
    // One tls-crypt key for the whole network.
    const keys = new Set(ids.map((id) => many.get(id)!.payload.certificates?.['tls-crypt.key']));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^-----BEGIN OpenVPN Static key V1-----\n/);

    // Another tenant's ids, or a member outside the network, give nothing.
    const other = await newAccount(t());
    expect((await networkConfigsOf(t().ctx, other.account.id, network.id, ids)).size).toBe(0);
    expect((await networkConfigsOf(t().ctx, a.account.id, network.id, [])).size).toBe(0);
  });
});

describeEachDatabase('the tls-crypt key a delivery sends', (t) => {
  it("is the network's, sealed at rest, another network's another, and made on first delivery for a network from before them", async () => {
    const a = await newAccount(t());
    const [c1, p1, c2, p2] = await seedFreshMembers(t(), a.account.id, 4);
    const numbers = [await createNetworkThroughApi(t(), a.token, { center: [c1!], point: [p1!] }), await createNetworkThroughApi(t(), a.token, { center: [c2!], point: [p2!] })];
    await t().ctx.events.settle();
    const networks = await t().db.selectFrom('network').select(['id', 'network_number']).where('network_number', 'in', numbers).orderBy('id').execute();
    const membersOf = async (networkId: number) =>
      (await t().db.selectFrom('network_member').select('member_id').where('network_id', '=', networkId).orderBy('member_id').execute()).map((m) => m.member_id);
    const keyOf = (c: HeldConfig | undefined) => c?.payload.certificates?.['tls-crypt.key'];

    const [first, second] = networks;
    const firstIds = await membersOf(first!.id);
    const secondIds = await membersOf(second!.id);
    const firstKey = keyOf((await networkConfigsOf(t().ctx, a.account.id, first!.id, firstIds)).get(firstIds[0]!));
    const secondKey = keyOf((await configsOf(t().ctx, a.account.id, secondIds[1]!, [second!.id]))[0]);
    expect(firstKey).toMatch(/^-----BEGIN OpenVPN Static key V1-----\n/);
    expect(secondKey).toMatch(/^-----BEGIN OpenVPN Static key V1-----\n/);
    expect(secondKey).not.toBe(firstKey);
    const sealed = await t().db.selectFrom('network_pki').select('tls_crypt_sealed').where('network_id', '=', first!.id).executeTakeFirstOrThrow();
    expect(sealed.tls_crypt_sealed).toMatch(/^v1\./);
    expect(sealed.tls_crypt_sealed).not.toContain(firstKey!.split('\n')[1]);

    // A network's PKI as a release before tls-crypt keys left it: its first delivery, to one member or to all, makes the key.
    for (const read of [
      async () => (await configsOf(t().ctx, a.account.id, firstIds[1]!, [first!.id]))[0],
      async () => (await networkConfigsOf(t().ctx, a.account.id, first!.id, firstIds)).get(firstIds[1]!),
    ]) {
      await t().db.updateTable('network_pki').set({ tls_crypt_sealed: null }).where('network_id', '=', first!.id).execute();
      const key = keyOf(await read());
      expect(key).toMatch(/^-----BEGIN OpenVPN Static key V1-----\n/);
      expect(key).not.toBe(firstKey);
      expect(keyOf((await configsOf(t().ctx, a.account.id, firstIds[0]!, [first!.id]))[0])).toBe(key);
    }
    // The other network kept its own.
    expect(keyOf((await configsOf(t().ctx, a.account.id, secondIds[0]!, [second!.id]))[0])).toBe(secondKey);
  });
});
