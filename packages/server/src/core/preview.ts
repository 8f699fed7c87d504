import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../db/connect';

/*
 * A change run as a preview: the service makes it in its own transaction as it always does, and at the
 * point where it would commit (previewPoint) the state before and after is taken and the transaction
 * rolled back. What the states are and how two compare is the business of whoever provides them
 * (providePreview); this file only carries the run through the call. A preview writes nothing: no
 * audit capture runs inside it, and its transaction never commits.
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
  before?: unknown;
  taken?: { before: unknown; after: unknown };
}

const previewers = new WeakMap<object, Map<string, Previewer<unknown, unknown>>>();
const runs = new AsyncLocalStorage<Run>();

/** Thrown at the preview point: rolls the change's transaction back. */
class PreviewTaken extends Error {}

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
  const run: Run = { previewer };
  try {
    await runs.run(run, change);
  } catch (err) {
    if (!(err instanceof PreviewTaken)) throw err;
  }
  if (!run.taken) return null;
  return (await previewer.compare(run.taken.before, run.taken.after, caller)) as E;
}

/** In a change's transaction: 'before' ahead of the change, 'after' once it is made (which rolls the transaction back). Nothing outside a preview. */
export async function previewPoint(db: Db, tenantId: number, subjectId: number, phase: 'before' | 'after'): Promise<void> {
  const run = runs.getStore();
  if (!run) return;
  if (phase === 'before') {
    run.before = await run.previewer.snapshot(db, tenantId, subjectId);
    return;
  }
  run.taken = { before: run.before, after: await run.previewer.snapshot(db, tenantId, subjectId) };
  throw new PreviewTaken('preview taken');
}
