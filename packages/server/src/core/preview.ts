import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../db/connect';

/*
 * A change run as a preview: the service makes it in its own transaction as it always does, and at the
 * point where it would commit (previewPoint) the state before and after is taken and the transaction
 * rolled back. What the states are and how two compare is the business of whoever provides them
 * (providePreview); this file only carries the run through the call. A preview writes nothing: no
 * audit capture runs inside it, and its transaction never commits.
 * A save (saveWithEffect) takes the same two states without rolling back, and compares them once the
 * change has committed, so what was saved can be kept with the record the change wrote (savedAs).
 */

/** Who asks for a preview (a comparison may say what the change means for the caller's own connection). */
export interface PreviewCaller {
  ip: string;
}

/** Takes one subject's state (inside the change's transaction) and, outside it, compares two. */
export interface Previewer<S, E> {
  snapshot(db: Db, tenantId: number, subjectId: number): Promise<S>;
  compare(before: S, after: S, caller: PreviewCaller): Promise<E>;
}

interface Run {
  previewer: Previewer<unknown, unknown>;
  /** A real save: the 'after' point does not roll back. */
  save: boolean;
  /** Whether the change is still running: work it started that outlives it (a dispatcher's timer) carries the run along. */
  open: boolean;
  /**
   * The change's transaction, from its first point on: other work started inside the change (an event
   * dispatch woken by it) inherits the run, and its own transactions' points are not the change's.
   */
  db?: Db;
  before?: unknown;
  taken?: { before: unknown; after: unknown; subject: number };
  record?: number | null;
}

const previewers = new WeakMap<object, Map<string, Previewer<unknown, unknown>>>();
const runs = new AsyncLocalStorage<Run>();

/** Thrown at the preview point: rolls the change's transaction back. */
class PreviewTaken extends Error {}

/** A save's comparison failed after the change committed (its cause says why): the change stands. */
export class EffectFailed extends Error {}

export function providePreview<S, E>(owner: object, kind: string, previewer: Previewer<S, E>): void {
  let byKind = previewers.get(owner);
  if (!byKind) previewers.set(owner, (byKind = new Map()));
  byKind.set(kind, previewer as Previewer<unknown, unknown>);
}

/**
 * Runs `change` as a preview of `kind` and answers the comparison of the states before and after.
 * A refusal of the change is thrown as it would be; a change that never reaches its preview point
 * (it returned before its transaction) answers null.
 */
export async function preview<E>(owner: object, kind: string, caller: PreviewCaller, change: () => Promise<unknown>): Promise<E | null> {
  const previewer = previewers.get(owner)?.get(kind);
  if (!previewer) throw new Error(`no previewer of ${kind}`);
  const run: Run = { previewer, save: false, open: true };
  try {
    await runs.run(run, change);
  } catch (err) {
    if (!(err instanceof PreviewTaken)) throw err;
  } finally {
    run.open = false;
  }
  if (!run.taken) return null;
  return (await previewer.compare(run.taken.before, run.taken.after, caller)) as E;
}

/** In a change's transaction: 'before' ahead of the change, 'after' once it is made (which rolls the transaction back). Nothing outside a preview. */
export async function previewPoint(db: Db, tenantId: number, subjectId: number, phase: 'before' | 'after'): Promise<void> {
  const run = runs.getStore();
  if (!run?.open || (run.db !== undefined && run.db !== db) || (phase === 'after' && run.db === undefined)) return;
  run.db = db;
  if (phase === 'before') {
    run.before = await run.previewer.snapshot(db, tenantId, subjectId);
    return;
  }
  run.taken = { before: run.before, after: await run.previewer.snapshot(db, tenantId, subjectId), subject: subjectId };
  if (!run.save) throw new PreviewTaken('preview taken');
}

/** In a saved change's transaction: the record it wrote (a version number; null: it wrote none). Nothing outside a save. */
export function savedAs(db: Db, record: number | null): void {
  const run = runs.getStore();
  if (run?.save && run.open && run.db === db) run.record = record;
}

export interface Saved<E> {
  /** The comparison of the states before and after; null when the change never reached its preview points. */
  effect: E | null;
  /** The subject the points named, and the record the change wrote (savedAs). */
  subject: number | null;
  record: number | null;
}

/**
 * Runs `change` for real as a change of `kind`, taking the states at its preview points, and once it
 * has returned (committed) compares them. A refusal is thrown as it would be.
 */
export async function saveWithEffect<E>(owner: object, kind: string, change: () => Promise<unknown>): Promise<Saved<E>> {
  const previewer = previewers.get(owner)?.get(kind);
  if (!previewer) throw new Error(`no previewer of ${kind}`);
  const run: Run = { previewer, save: true, open: true };
  try {
    await runs.run(run, change);
  } finally {
    run.open = false;
  }
  if (!run.taken) return { effect: null, subject: null, record: null };
  let effect: E;
  try {
    effect = (await previewer.compare(run.taken.before, run.taken.after, { ip: '' })) as E;
  } catch (err) {
    throw new EffectFailed('comparison failed', { cause: err });
  }
  return { effect, subject: run.taken.subject, record: run.record ?? null };
}
