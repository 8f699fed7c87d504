import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../../test/helpers';
import { networkPki } from './0012_network_pki';

describeEachDatabase('migration 0012: the network PKI tables', (t) => {
  it('goes down and up again, and holds a serial once per network', async () => {
    const db = t().db;
    const raw = db as unknown as Kysely<unknown>;
    await networkPki(t().dialect).down!(raw);
    await expect(db.selectFrom('network_pki').selectAll().execute()).rejects.toThrow();
    await networkPki(t().dialect).up(raw);

    const tenant = (await newAccount(t())).account.id;
    const net = await db
      .insertInto('network')
      .values({ tenant_id: tenant, network_number: `NMIG${Date.now() % 1_000_000}`, network_name: 'n', create_time: 1, update_time: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const cert = { tenant_id: tenant, network_id: net.id, member_id: 1, role: 'client', common_name: 'a', serial: '0a', cert: 'c', key_sealed: 'k', not_after: 2, revoked_at: null, create_time: 1 };
    await db.insertInto('member_certificate').values(cert).execute();
    await expect(db.insertInto('member_certificate').values({ ...cert, member_id: 2 }).execute()).rejects.toThrow();
    await db.insertInto('network_pki').values({ network_id: net.id, tenant_id: tenant, ca_cert: 'c', ca_key_sealed: 'k', crl: 'r', create_time: 1, update_time: 1 }).execute();
    await expect(db.insertInto('network_pki').values({ network_id: net.id, tenant_id: tenant, ca_cert: 'c', ca_key_sealed: 'k', crl: 'r', create_time: 1, update_time: 1 }).execute()).rejects.toThrow();
    // a time in ms past 2^31 fits (bigint)
    await db.updateTable('member_certificate').set({ not_after: 4_102_444_800_000 }).where('network_id', '=', net.id).execute();
    expect((await db.selectFrom('member_certificate').select('not_after').where('network_id', '=', net.id).executeTakeFirstOrThrow()).not_after).toBe(4_102_444_800_000);
  });
});
