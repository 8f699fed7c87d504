import { addRouter } from '@hublink/contract';
import { formatTime } from '../../core/time';
import type { TestApp } from '../../../test/helpers';
import { assignSaasDevice, type SaasAssignment } from './assign';

// Shared by the SaaS module's tests: hardware members added through the real call, made SaaS devices
// by the operator's function, and their history rows written as the gateway's writers write them.

let seq = 0;
export const freshName = (prefix = 's') => `${prefix}${String(Date.now() % 100_000).padStart(5, '0')}${String(++seq).padStart(4, '0')}`;

export async function addMember(t: TestApp, token: string, router_type: 1 | 2 = 1, username = freshName(router_type === 1 ? 'hw' : 'sw')) {
  const res = await t.call(addRouter, { token, body: { router_type, username, password: 'pass1234', note: '' } });
  if (res.code !== 200) throw new Error(`add ${username}: ${res.msg}`);
  return username;
}

export async function saasDevice(t: TestApp, token: string, tenantId: number, over: Partial<Omit<SaasAssignment, 'tenantId' | 'routerName'>> = {}) {
  const name = await addMember(t, token, 1, freshName('saas'));
  await assignSaasDevice(t.db, { tenantId, routerName: name, category: '华东', share: 1, max_bandwidth: 100, bandwidth: 20, expire_date: null, ...over });
  const m = await t.db.selectFrom('member').select('id').where('tenant_id', '=', tenantId).where('router_name', '=', name).executeTakeFirstOrThrow();
  return { name, id: m.id };
}

const minuteOf = (ms: number) => Math.floor(ms / 60_000) * 60_000;

export async function flowRows(t: TestApp, tenantId: number, memberId: number, rows: { kind: 'app' | 'orig'; name: string; download: number; upload: number; at: number }[]) {
  await t.db
    .insertInto('flow_minute')
    .values(rows.map((r) => ({ tenant_id: tenantId, member_id: memberId, kind: r.kind, name: r.name, minute: minuteOf(r.at), download: r.download, upload: r.upload })))
    .execute();
}

/** 'yyyy-MM-dd HH:mm:ss' of a moment in the test app's zone. */
export const at = (t: TestApp, ms: number) => formatTime(ms, t.ctx.config.timezone);
export { minuteOf };
