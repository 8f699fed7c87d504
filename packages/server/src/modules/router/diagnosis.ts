import { DEVICE_CLOSE, M, diagnosisMessage, type Diagnosis, type DiagnosisCause, type DiagnosisNetwork } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { allowedNetworks } from '../../core/networks';
import { formatTime } from '../../core/time';
import { findMember } from './service';

/*
 * Device diagnostics (issue 18): why a member is offline or degraded, from what the device gateway
 * recorded (member_diagnosis, device_session, connect_log, member_link, member_config) and what the
 * compiler issued (member_certificate). The causes are checked in the order of DIAGNOSIS_CAUSES; the
 * first that holds is named.
 */

/** Close codes of a refused hello that mean the device's secret (or password) is wrong. */
const WRONG_SECRET = new Set<number>([DEVICE_CLOSE.authFailed, DEVICE_CLOSE.tooManyAttempts]);

export async function diagnose(ctx: Ctx, actor: Actor, name: string, now = Date.now()): Promise<Diagnosis> {
  const { db } = ctx;
  const tz = ctx.config.timezone;
  const m = await findMember(db, actor, name);
  const allowed = allowedNetworks(actor);
  const [account, diag, session, lastEnd, networks] = await Promise.all([
    db.selectFrom('account').select('status').where('id', '=', actor.tenantId).executeTakeFirstOrThrow(),
    db.selectFrom('member_diagnosis').selectAll().where('member_id', '=', m.id).where('tenant_id', '=', actor.tenantId).executeTakeFirst(),
    db.selectFrom('device_session').select(['start_time', 'remote_ip']).where('member_id', '=', m.id).where('tenant_id', '=', actor.tenantId).orderBy('start_time', 'desc').executeTakeFirst(),
    // Sessions that ended before the gateway recorded diagnosis rows still show in the connect log.
    db
      .selectFrom('connect_log')
      .select(['create_time', 'remote_ip'])
      .where('tenant_id', '=', actor.tenantId)
      .where('router_name', '=', m.router_name)
      .where('member_id', '=', m.id)
      .orderBy('create_time', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('network_member as nm')
      .innerJoin('network as n', 'n.id', 'nm.network_id')
      .leftJoin('member_config as c', (j) => j.onRef('c.network_id', '=', 'nm.network_id').onRef('c.member_id', '=', 'nm.member_id'))
      .select(['n.id', 'n.network_number', 'n.network_name', 'nm.member_type', 'c.version', 'c.applied_version', 'c.applied_error', 'c.applied_time'])
      .where('nm.member_id', '=', m.id)
      .where('nm.tenant_id', '=', actor.tenantId)
      .where('n.tenant_id', '=', actor.tenantId)
      .$if(allowed !== null, (qb) => qb.where('n.network_number', 'in', allowed!))
      .orderBy('n.id')
      .execute(),
  ]);
  const networkIds = networks.map((n) => n.id);
  const [links, certificates] = networkIds.length
    ? await Promise.all([
        db
          .selectFrom('member_link as l')
          .innerJoin('member as c', 'c.id', 'l.center_member_id')
          .select(['l.network_id', 'l.vpn_online', 'c.router_name'])
          .where('l.network_id', 'in', networkIds)
          .where('l.member_id', '=', m.id)
          .where('c.tenant_id', '=', actor.tenantId)
          .orderBy('l.id')
          .execute(),
        db
          .selectFrom('member_certificate')
          .select(['network_id', 'not_after', 'revoked_at'])
          .where('tenant_id', '=', actor.tenantId)
          .where('member_id', '=', m.id)
          .where('network_id', 'in', networkIds)
          .orderBy('id')
          .execute(),
      ])
    : [[], []];

  const online = session ? 1 : 0;
  // The newest certificate per network is the one in force.
  const certificateOf = new Map<number, { not_after: number; revoked_at: number | null }>();
  for (const c of certificates) certificateOf.set(c.network_id, { not_after: Number(c.not_after), revoked_at: c.revoked_at === null ? null : Number(c.revoked_at) });
  const shown: DiagnosisNetwork[] = networks.map((n) => ({
    network_number: n.network_number,
    network_name: n.network_name,
    config_version: n.version ?? 0,
    applied_version: n.applied_version ?? 0,
    applied_error: n.applied_error ?? '',
    applied_time: n.applied_time ? formatTime(Number(n.applied_time), tz) : '',
    links: links.filter((l) => l.network_id === n.id).map((l) => ({ center: l.router_name, vpn_online: l.vpn_online })),
  }));

  // The device's last message and address: the open session, else the last recorded end, else the connect log.
  const seenTime = session ? Number(session.start_time) : diag?.seen_time != null ? Number(diag.seen_time) : lastEnd ? Number(lastEnd.create_time) : null;
  const seenIp = session ? session.remote_ip : diag?.seen_time != null ? diag.seen_ip : (lastEnd?.remote_ip ?? '');
  const failTime = diag?.fail_time != null ? Number(diag.fail_time) : null;
  const everConnected = online === 1 || seenTime !== null;

  const pick = (): { cause: DiagnosisCause; time?: string; ip?: string; network?: string; center?: string; backup?: string } => {
    if (!everConnected && failTime === null) return { cause: 'never_connected' };
    if (!online && failTime !== null && WRONG_SECRET.has(diag!.fail_code) && failTime >= (seenTime ?? 0)) {
      return { cause: 'wrong_secret', time: formatTime(failTime, tz), ip: diag!.fail_ip };
    }
    if (m.status !== 1 || account.status !== 1) return { cause: 'disabled' };
    const badCert = networks.find((n) => {
      const c = certificateOf.get(n.id);
      return c !== undefined && (c.revoked_at !== null || c.not_after <= now);
    });
    if (badCert) return { cause: 'certificate', network: badCert.network_name };
    if (!online) return seenTime === null ? { cause: 'never_connected' } : { cause: 'heartbeat_lost', time: formatTime(seenTime, tz), ip: seenIp };
    // A point needs one tunnel up to a center; a point whose agent reported no link yet is not judged.
    const down = networks.find((n) => {
      const own = links.filter((l) => l.network_id === n.id);
      return n.member_type === 'point' && own.length > 0 && !own.some((l) => l.vpn_online === 1);
    });
    if (down) return { cause: 'tunnel_down', network: down.network_name, center: links.filter((l) => l.network_id === down.id).map((l) => l.router_name).join(M.diagnosisCenterSeparator) };
    // Every center of a point is a hot standby (docs/networking.md): one of them down means its traffic moved.
    const partly = networks.find((n) => n.member_type === 'point' && links.some((l) => l.network_id === n.id && l.vpn_online !== 1));
    if (partly) {
      const own = links.filter((l) => l.network_id === partly.id);
      const names = (online: boolean) => own.filter((l) => (l.vpn_online === 1) === online).map((l) => l.router_name).join(M.diagnosisCenterSeparator);
      return { cause: 'failed_over', network: partly.network_name, center: names(false), backup: names(true) };
    }
    const behind = networks.find((n) => (n.version ?? 0) > 0 && ((n.applied_version ?? 0) < n.version! || (n.applied_error ?? '') !== ''));
    if (behind) return { cause: 'config_behind', network: behind.network_name };
    return { cause: 'healthy' };
  };
  const found = pick();
  return {
    router_name: m.router_name,
    cause: found.cause,
    message: diagnosisMessage(found.cause, found),
    online,
    last_seen: seenTime !== null ? formatTime(seenTime, tz) : '',
    remote_ip: seenIp,
    close_code: online ? 0 : (diag?.close_code ?? 0),
    close_reason: online ? '' : (diag?.close_reason ?? ''),
    failure_time: failTime !== null ? formatTime(failTime, tz) : '',
    failure_ip: diag?.fail_ip ?? '',
    networks: shown,
  };
}
