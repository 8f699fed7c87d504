import {
  AUDIT_ACTION_PATHS,
  type ChangeEffect,
  AUDIT_EXPORT_COLUMNS,
  AUDIT_KIND_TEXT,
  AUDIT_SOURCE_TEXT,
  AUDIT_WHO,
  auditActionName,
  auditFieldLabel,
  auditFieldShown,
  auditObjectText,
  auditTableName,
  auditWhoText,
  auditValueText,
  LIMITS,
  M,
  fmt,
  type AuditEntry,
  type AuditExportFile,
  type AuditField,
  type AuditRowChange,
  type AuditSetting,
  type DomainEvent,
  type auditExport,
  type auditList,
  type auditSettingSave,
} from '@hublink/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import { kindOf } from '../../core/auditEntry';
import type { Ctx } from '../../core/context';
import { invalid } from '../../core/errors';
import type { EventMeta } from '../../core/events';
import { contains, pageOf } from '../../core/paging';
import { dayRange, formatTime } from '../../core/time';
import type { AuditEntryTable } from '../../db/types';
import { auditSheet } from './workbook';

type ListQuery = z.output<typeof auditList.query>;
type Filter = Omit<ListQuery, 'page' | 'limit'> | z.output<typeof auditExport.query>;

/** Column sizes of audit_entry (migration 0027). */
const SIZE = { actor: 128, ip: 64, ua: 255, path: 128, msg: 255, area: 32, objectType: 64, objectId: 64, objectName: 255 } as const;

/**
 * Writes the audit entry of one operation.performed event. Events from before issue 18 (a
 * sub-account's path and msg only) make entries too, with what they carry. The event's id is unique
 * in audit_entry: a delivery that comes twice writes once.
 */
export async function writeEntry(event: DomainEvent<'operation.performed'>, ctx: Ctx, meta: EventMeta): Promise<void> {
  const who = event.who ?? (event.ram_id !== null ? 'ram' : 'main');
  let actorName = '';
  if (who === 'operator') actorName = event.operator ?? '';
  else if (who === 'token') actorName = event.token_name || (event.token_id !== undefined ? `#${event.token_id}` : '');
  if (event.ram_id !== null) {
    const ram = await ctx.db.selectFrom('ram_account').select('username').where('tenant_id', '=', event.tenant_id).where('id', '=', event.ram_id).executeTakeFirst();
    actorName = ram?.username ?? `#${event.ram_id}`;
  }
  const changes = event.changes ?? [];
  const object = event.object ?? { type: '', id: '', name: '' };
  await ctx.db
    .insertInto('audit_entry')
    .values({
      tenant_id: event.tenant_id,
      event_id: meta.eventId,
      create_time: meta.at,
      who,
      ram_id: event.ram_id,
      token_id: event.token_id ?? null,
      actor_name: actorName.slice(0, SIZE.actor),
      ip: (event.ip ?? '').slice(0, SIZE.ip),
      user_agent: (event.user_agent ?? '').slice(0, SIZE.ua),
      source: event.source ?? 'console',
      method: event.method ?? 'POST',
      path: event.path.slice(0, SIZE.path),
      msg: event.msg.slice(0, SIZE.msg),
      area: (event.path.replace(/^\//, '').split('/')[0] ?? '').slice(0, SIZE.area),
      kind: kindOf(changes),
      object_type: object.type.slice(0, SIZE.objectType),
      object_id: object.id.slice(0, SIZE.objectId),
      object_name: object.name.slice(0, SIZE.objectName),
      changes: JSON.stringify(changes),
      more: event.more ?? 0,
      effect: event.effect ? JSON.stringify(event.effect) : null,
    })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .execute();
}

/** The paths of the actions whose name contains the text: the search finds an entry by what it did ('网络名称'). */
const actionPathsContaining = (text: string): string[] => AUDIT_ACTION_PATHS.filter((p) => auditActionName(p).toLowerCase().includes(text.trim().toLowerCase()));

/** The tenant's entries the filters match: who (a kind, or the name contains), object (type, id or name contains), days, kind, area. */
function filtered(ctx: Ctx, actor: Actor, q: Filter) {
  const { from, to } = dayRange(q.start_time, q.end_time, ctx.config.timezone);
  const whoKind = (AUDIT_WHO as readonly string[]).includes(q.who ?? '') ? q.who : undefined;
  return ctx.db
    .selectFrom('audit_entry')
    .where('tenant_id', '=', actor.tenantId)
    .$if(whoKind !== undefined, (qb) => qb.where('who', '=', whoKind!))
    .$if(!!q.who && whoKind === undefined, (qb) => qb.where((eb) => contains(ctx.dialect, eb.ref('actor_name'), q.who!)))
    .$if(!!q.object, (qb) =>
      qb.where((eb) => eb.or((['object_type', 'object_id', 'object_name'] as const).map((c) => contains(ctx.dialect, eb.ref(c), q.object!)))),
    )
    .$if(!!q.search, (qb) =>
      qb.where((eb) => {
        const actions = actionPathsContaining(q.search!);
        return eb.or([
          ...(['path', 'msg', 'object_name', 'actor_name'] as const).map((c) => contains(ctx.dialect, eb.ref(c), q.search!)),
          ...(actions.length > 0 ? [eb('path', 'in', actions)] : []),
        ]);
      }),
    )
    .$if(from !== undefined, (qb) => qb.where('create_time', '>=', from!))
    .$if(to !== undefined, (qb) => qb.where('create_time', '<', to!))
    .$if(!!q.kind, (qb) => qb.where('kind', '=', q.kind!))
    .$if(!!q.area, (qb) => qb.where('area', '=', q.area!));
}

const ENTRY_COLUMNS = [
  'id',
  'create_time',
  'who',
  'actor_name',
  'ip',
  'user_agent',
  'source',
  'method',
  'path',
  'msg',
  'area',
  'kind',
  'object_type',
  'object_id',
  'object_name',
  'changes',
  'more',
  'effect',
] as const;

/** An entry as read; toEntry takes its numbers through Number() (PostgreSQL's bigint columns may come back as text). */
type EntryRow = Pick<Selectable<AuditEntryTable>, (typeof ENTRY_COLUMNS)[number]>;

const toEntry = (ctx: Ctx, r: EntryRow): AuditEntry =>
  ({
    ...r,
    id: Number(r.id),
    create_time: formatTime(Number(r.create_time), ctx.config.timezone),
    action: auditActionName(r.path),
    changes: JSON.parse(r.changes) as AuditRowChange[],
    more: Number(r.more),
    effect: r.effect ? (JSON.parse(r.effect) as ChangeEffect) : null,
  }) as AuditEntry;

export async function list(ctx: Ctx, actor: Actor, q: ListQuery): Promise<{ rows: AuditEntry[]; count: number }> {
  const { rows, count } = await pageOf(filtered(ctx, actor, q), q, (qb) => qb.select(ENTRY_COLUMNS).orderBy('create_time', 'desc').orderBy('id', 'desc'));
  return { rows: rows.map((r) => toEntry(ctx, r)), count };
}

/** The changes of an entry as one cell: "网络#id 网络名称: before → after" per line; secrets as 已修改, instants as times, ids by their recorded names. */
function changesText(ctx: Ctx, e: AuditEntry): string {
  const time = (ms: number) => formatTime(ms, ctx.config.timezone);
  const value = (table: string, f: AuditField, side: 'before' | 'after') =>
    auditValueText(table, f.field, f[side], time, side === 'before' ? f.before_name : f.after_name) || M.auditEmptyValue;
  const lines = e.changes.flatMap((c) => [
    c.name ? `${auditTableName(c.table)} ${c.name}` : `${auditTableName(c.table)}#${c.id ?? ''}`,
    ...c.fields.filter((f) => auditFieldShown(f.field)).map((f) => `  ${auditFieldLabel(c.table, f.field)}: ${f.secret ? M.auditSecretChanged : `${value(c.table, f, 'before')} → ${value(c.table, f, 'after')}`}`),
  ]);
  if (e.more > 0) lines.push(fmt(M.auditMore, { n: e.more }));
  return lines.join('\n');
}

/** The matching entries (newest first, at most LIMITS.auditExportRowsMax) as .xlsx; 422 M.exportEmpty when none. */
export async function exportEntries(ctx: Ctx, actor: Actor, q: z.output<typeof auditExport.query>): Promise<AuditExportFile> {
  const rows = await filtered(ctx, actor, q).select(ENTRY_COLUMNS).orderBy('create_time', 'desc').orderBy('id', 'desc').limit(LIMITS.auditExportRowsMax).execute();
  if (rows.length === 0) throw invalid(M.exportEmpty);
  const cells = rows.map((raw) => {
    const e = toEntry(ctx, raw);
    return [e.create_time, auditWhoText(e), AUDIT_SOURCE_TEXT[e.source], e.ip, e.action, `${e.method} ${e.path}`, AUDIT_KIND_TEXT[e.kind], auditObjectText(e), changesText(ctx, e)];
  });
  const body = await auditSheet(AUDIT_EXPORT_COLUMNS, cells);
  const day = formatTime(Date.now(), ctx.config.timezone).slice(0, 10).replaceAll('-', '');
  return { file_name: `${M.auditExportFile}-${day}.xlsx`, data: body.toString('base64') };
}

export async function setting(ctx: Ctx, actor: Actor): Promise<AuditSetting> {
  const row = await ctx.db.selectFrom('audit_setting').select('retention_days').where('tenant_id', '=', actor.tenantId).executeTakeFirst();
  return { retention_days: row?.retention_days ?? LIMITS.auditRetentionDays };
}

export async function saveSetting(ctx: Ctx, actor: Actor, input: z.output<typeof auditSettingSave.body>): Promise<void> {
  await ctx.db
    .insertInto('audit_setting')
    .values({ tenant_id: actor.tenantId, retention_days: input.retention_days })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ retention_days: input.retention_days }))
    .execute();
}

const DAY_MS = 86_400_000;

/**
 * The daily retention job: removes each tenant's entries older than its retention (the default for
 * tenants without a setting), and returns how many went.
 */
export async function applyRetention(ctx: Ctx, now = Date.now()): Promise<number> {
  let deleted = 0;
  const custom = await ctx.db.selectFrom('audit_setting').select(['tenant_id', 'retention_days']).execute();
  for (const s of custom) {
    const res = await ctx.db
      .deleteFrom('audit_entry')
      .where('tenant_id', '=', s.tenant_id)
      .where('create_time', '<', now - s.retention_days * DAY_MS)
      .executeTakeFirst();
    deleted += Number(res.numDeletedRows);
  }
  const res = await ctx.db
    .deleteFrom('audit_entry')
    .where('create_time', '<', now - LIMITS.auditRetentionDays * DAY_MS)
    .$if(custom.length > 0, (qb) => qb.where('tenant_id', 'not in', custom.map((s) => s.tenant_id)))
    .executeTakeFirst();
  return deleted + Number(res.numDeletedRows);
}
