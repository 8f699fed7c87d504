import { createHash } from 'node:crypto';
import { DEVICE_CLOSE, DEVICE_TIMING, type HelloMessage } from '@hublink/contract';
import type { Ctx } from '../core/context';
import type { AuthOutcome, DeviceMember } from './auth';

/*
 * Devices join by approval (issue 30). Every sign-in that proved its member is checked here before it
 * gets a credential or a session: the device is recorded per member (device_approval), and while the
 * tenant's setting is on only approved devices pass. Devices seen while the setting is off are recorded
 * as approved (decided_by ''), so turning it on locks out none of the devices already in use; a member
 * that signed in before approval was turned on and has no device recorded (it last signed in before this
 * release) gets its next device approved the same way. A refused device stays refused whatever the
 * setting: it was an administrator's decision. modules/device-approval lists the rows and decides.
 */

export type ApprovalVerdict = 'approved' | 'waiting' | 'refused';

/** A device as the approval rules know it; device_id is any stable id of the device (at most 96 characters). */
export interface ApprovalDevice {
  device_id: string;
  ip: string;
  os: string;
  model: string;
  brand: string;
}

/** Waiting devices kept per member: a device inventing new ids pushes out its own oldest waiting rows, nothing else. */
const WAITING_PER_MEMBER = 20;
/** A device's last address and time are written at most this often (a reconnect storm stays cheap). */
const SEEN_EVERY_MS = 60_000;

const fit = (s: string, max: number) => s.slice(0, max);

/** The key a hello's device is known by: its own id, else a router's MAC or name, else a hash of an app's OS, brand and model. */
export function deviceKeyOf(hello: HelloMessage): string {
  if (hello.device_id) return `id:${hello.device_id}`;
  if (hello.kind === 'router') return hello.router_mac ? `mac:${hello.router_mac.toLowerCase()}` : `name:${hello.router_name.toLowerCase()}`;
  return `fp:${createHash('sha256').update(`${hello.os}\n${hello.sys_brand}\n${hello.sys_model}`).digest('hex').slice(0, 32)}`;
}

export const approvalDeviceOf = (hello: HelloMessage, ip: string): ApprovalDevice => ({
  device_id: deviceKeyOf(hello),
  ip,
  os: hello.os,
  model: (hello.kind === 'router' && hello.router_model) || hello.sys_model,
  brand: hello.sys_brand,
});

/**
 * Whether a member's device may sign in, recording it: 'approved' passes, 'waiting' must retry later,
 * 'refused' may not. For the gateway's hello and for any other sign-in path (stock OpenVPN clients).
 */
export async function deviceApproval(ctx: Pick<Ctx, 'db'>, member: { id: number; tenant_id: number }, device: ApprovalDevice, now = Date.now()): Promise<ApprovalVerdict> {
  const key = fit(device.device_id, 96);
  const seen = { ip: fit(device.ip, 64), os: fit(device.os, 32), model: fit(device.model, 64), brand: fit(device.brand, 64), last_time: now };
  const setting = await ctx.db.selectFrom('device_approval_setting').select(['enabled', 'enabled_time']).where('tenant_id', '=', member.tenant_id).executeTakeFirst();
  const on = setting?.enabled === 1;
  const row = await ctx.db
    .selectFrom('device_approval')
    .select(['id', 'state', 'last_time', 'ip'])
    .where('member_id', '=', member.id)
    .where('device_key', '=', key)
    .executeTakeFirst();

  if (row) {
    if (row.state === 'waiting' && !on) {
      await ctx.db.updateTable('device_approval').set({ ...seen, state: 'approved', decided_by: '', decided_time: now }).where('id', '=', row.id).where('state', '=', 'waiting').execute();
      return 'approved';
    }
    if (now - row.last_time >= SEEN_EVERY_MS || row.ip !== seen.ip || row.state === 'waiting') {
      await ctx.db.updateTable('device_approval').set(seen).where('id', '=', row.id).execute();
    }
    return row.state === 'approved' ? 'approved' : row.state === 'refused' ? 'refused' : 'waiting';
  }

  const approved = !on || (await signedInBefore(ctx, member.id, setting?.enabled_time ?? now));
  if (!approved) {
    const old = await ctx.db
      .selectFrom('device_approval')
      .select('id')
      .where('member_id', '=', member.id)
      .where('state', '=', 'waiting')
      .orderBy('id', 'desc')
      .offset(WAITING_PER_MEMBER - 1)
      .limit(1000)
      .execute();
    if (old.length > 0) await ctx.db.deleteFrom('device_approval').where('id', 'in', old.map((o) => o.id)).execute();
  }
  await ctx.db
    .insertInto('device_approval')
    .values({
      tenant_id: member.tenant_id,
      member_id: member.id,
      device_key: key,
      ...seen,
      state: approved ? 'approved' : 'waiting',
      first_time: now,
      decided_by: '',
      decided_time: approved ? now : null,
    })
    .onConflict((oc) => oc.columns(['member_id', 'device_key']).doNothing())
    .execute();
  // Two hellos of one device at once: the row the other one wrote decides.
  const stored = await ctx.db.selectFrom('device_approval').select('state').where('member_id', '=', member.id).where('device_key', '=', key).executeTakeFirstOrThrow();
  return stored.state === 'approved' ? 'approved' : stored.state === 'refused' ? 'refused' : 'waiting';
}

/** A member that signed in before approval was turned on and has no device recorded (its devices predate this release). */
async function signedInBefore(ctx: Pick<Ctx, 'db'>, memberId: number, enabledTime: number): Promise<boolean> {
  const m = await ctx.db.selectFrom('member').select('online_time').where('id', '=', memberId).executeTakeFirst();
  if (m?.online_time === null || m?.online_time === undefined || m.online_time >= enabledTime) return false;
  const any = await ctx.db.selectFrom('device_approval').select('id').where('member_id', '=', memberId).limit(1).executeTakeFirst();
  return !any;
}

/** The refusal of a hello whose member is proven but whose device may not sign in yet (or at all); undefined when it passes. */
export async function heldForApproval(ctx: Pick<Ctx, 'db'>, member: DeviceMember, hello: HelloMessage, ip: string, now = Date.now()): Promise<AuthOutcome | undefined> {
  const verdict = await deviceApproval(ctx, member, approvalDeviceOf(hello, ip), now);
  if (verdict === 'approved') return undefined;
  const member_ = { id: member.id, tenant_id: member.tenant_id };
  return verdict === 'waiting'
    ? { ok: false, code: DEVICE_CLOSE.awaitingApproval, reason: `this device waits for the administrator's approval: retry every ${DEVICE_TIMING.approvalRetry} s`, member: member_ }
    : { ok: false, code: DEVICE_CLOSE.deviceRefused, reason: 'the administrator refused this device', member: member_ };
}
