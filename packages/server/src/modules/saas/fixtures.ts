import { formatTime } from '../../core/time';
import type { TestApp } from '../../../test/helpers';
import { addMember, freshName } from '../router/fixtures';
import { assignSaasDevice, type SaasAssignment } from './assign';

// Shared by the SaaS module's tests: a hardware member made a SaaS device by the operator's function.

export async function saasDevice(t: TestApp, token: string, tenantId: number, over: Partial<Omit<SaasAssignment, 'tenantId' | 'routerName'>> = {}) {
  const name = await addMember(t, token, { router_type: 1, username: freshName('saas') });
  await assignSaasDevice(t.db, { tenantId, routerName: name, category: '华东', share: 1, max_bandwidth: 100, bandwidth: 20, expire_date: null, ...over });
  const m = await t.db.selectFrom('member').select('id').where('tenant_id', '=', tenantId).where('router_name', '=', name).executeTakeFirstOrThrow();
  return { name, id: m.id };
}

/** 'yyyy-MM-dd HH:mm:ss' of a moment in the test app's zone. */
export const at = (t: TestApp, ms: number) => formatTime(ms, t.ctx.config.timezone);
