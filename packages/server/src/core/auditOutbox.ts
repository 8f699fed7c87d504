import { M, type ChangeEffect } from '@hublink/contract';
import type { Db } from '../db/connect';
import type { AuditScope, PendingCall } from './audit';
import { summary, type CapturedChange } from './auditEntry';
import type { Ctx } from './context';

/*
 * The audit trail's outbox (issue 32). A call's audited row changes are written to audit_pending in the
 * transactions that make them (core/audit.ts); here they become the call's entry: its operation.performed
 * event is written and its pending rows deleted in one transaction, so each committed change ends in
 * exactly one entry however the process stops. The call's end does it with its answer; the audit
 * module's sweep does it for the calls of a process that died, with M.auditInterrupted for an answer.
 */

type Events = Pick<Ctx['events'], 'emit'>;

/**
 * Writes a call's entry from its committed changes and forgets them, in one transaction. The rows are
 * taken by deleting them: of two takers at once (a call's end and a sweep, two sweeps) one gets them.
 */
async function settle(db: Db, events: Events, scopeId: string, call: PendingCall, msg: string, body: unknown, always: boolean, effect?: ChangeEffect): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const rows = (await trx.deleteFrom('audit_pending').where('scope_id', '=', scopeId).returning(['id', 'changes', 'more']).execute()).sort((a, b) => Number(a.id) - Number(b.id));
    if (rows.length === 0 && !always) return false;
    const changes = rows.flatMap((r) => JSON.parse(r.changes) as CapturedChange[]);
    const more = rows.reduce((n, r) => n + Number(r.more), 0);
    await events.emit(trx, { type: 'operation.performed', ...call, msg, ...summary(changes, body), more, ...(effect ? { effect } : {}) });
    return true;
  });
}

/**
 * The end of an audited call: a success always has its entry (with the changes that committed, or none);
 * a refusal or a failure has one only when some of its changes committed anyway, with its answer.
 */
export async function finishCall(db: Db, events: Events, scope: AuditScope, outcome: { ok: boolean; msg: string; body: unknown }): Promise<void> {
  if (!scope.pending) return;
  await settle(db, events, scope.pending.id, scope.pending.call, outcome.msg, outcome.body, outcome.ok, outcome.ok ? scope.effect : undefined);
}

/**
 * The calls whose pending rows are older than `before` (their process died between the change and the
 * entry: a live call ends long before): each gets its entry, saying it was interrupted. Answers how many.
 */
export async function sweepPending(db: Db, events: Events, before: number): Promise<number> {
  const scopes = await db.selectFrom('audit_pending').select(['scope_id', 'call']).where('create_time', '<', before).groupBy(['scope_id', 'call']).limit(500).execute();
  let settled = 0;
  for (const s of scopes) if (await settle(db, events, s.scope_id, JSON.parse(s.call) as PendingCall, M.auditInterrupted, {}, false)) settled++;
  return settled;
}
