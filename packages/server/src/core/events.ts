import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { EVENTS, type DomainEvent, type EventType } from '@hublink/contract';
import type { Db, Dialect } from '../db/connect';
import { uncaptured } from './audit';
import { metricsOf } from './metrics';

/** Which event a delivery carries (its id is unique: a handler can use it to act once) and when it was written. */
export interface EventMeta {
  eventId: number;
  at: number;
}

/** What a module does when an event happens: runs after commit, at least once, so it must be idempotent. */
export type EventHandler<T extends EventType, C> = (event: DomainEvent<T>, ctx: C, meta: EventMeta) => Promise<void>;
/**
 * A handler for only some events of its type: `when` is asked as the event is written, from the event
 * alone, and an event it declines gets no delivery for this subscriber at all (no row, no pass, no
 * bookkeeping: a note's edit announces member.changed, which two subscribers only act on for other fields).
 */
export interface FilteredHandler<T extends EventType, C> {
  when: (event: DomainEvent<T>) => boolean;
  run: EventHandler<T, C>;
}
export type Subscriptions<C> = { [T in EventType]?: EventHandler<T, C> | FilteredHandler<T, C> };

export interface EventBusOptions {
  /** How often an idle dispatcher looks for due deliveries (the backstop; emit wakes it at once). */
  pollMs?: number;
  /** How long one instance holds a delivery before another may take it (a crashed holder's lease runs out). */
  leaseMs?: number;
  /** Attempts before a delivery is given up (state 'dead', logged as an error). */
  maxAttempts?: number;
  /** Wait before attempt n+1, doubling from this up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  batch?: number;
}

interface DueDelivery {
  id: number;
  subscriber: string;
  tenant_id: number;
  attempts: number;
  event_id: number;
  type: string;
  payload: string;
  create_time: number;
}

interface Subscriber {
  name: string;
  handle: (event: DomainEvent, ctx: unknown, meta: EventMeta) => Promise<void>;
  when?: (event: DomainEvent) => boolean;
}

const ERROR_MAX = 1000;
/** Events (and deliveries) per insert: 500 rows of 5 to 6 values stay under every parameter limit. */
const EMIT_CHUNK = 500;
/** After a wake that found nothing (the emitting transaction had not committed yet), look again after these. */
const WAKE_RETRIES_MS = [20, 100, 400];
/**
 * Deliveries of one subscriber and tenant run one after another without a pass between them (a pass
 * reads every pending delivery: 5,000 member.online events of a restart storm made 5,000 passes of
 * 1.5 ms each). At most this many in a row, so a pass still comes round.
 */
const CHAIN_MAX = 200;

/**
 * Domain events through a transactional outbox. emit() writes the event and one delivery row per
 * subscriber in the caller's transaction, so a rolled-back change announces nothing and a committed
 * one is never lost. A dispatcher in every instance takes due deliveries under a lease and runs the
 * subscriber; one tenant's events reach a subscriber in order (a delivery waits while an earlier one of
 * the same subscriber and tenant is pending), and a failing subscriber is retried with backoff without
 * holding back the other subscribers or the request that emitted.
 */
export class EventBus<C = unknown> {
  private readonly subscribers = new Map<EventType, Subscriber[]>();
  private readonly byName = new Map<string, Subscriber>();
  private readonly opts: Required<EventBusOptions>;
  private ctx: C | undefined;
  private running = false;
  private pass: Promise<number> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly log: FastifyBaseLogger,
    opts: EventBusOptions = {},
  ) {
    this.opts = { pollMs: 1000, leaseMs: 60_000, maxAttempts: 12, backoffMs: 1000, maxBackoffMs: 10 * 60_000, batch: 50, ...opts };
  }

  /** Registers a module's handlers (before start); the subscriber is named module:event. */
  subscribe(moduleName: string, subscriptions: Subscriptions<C>) {
    for (const [type, handler] of Object.entries(subscriptions) as [EventType, EventHandler<EventType, C> | FilteredHandler<EventType, C>][]) {
      const name = `${moduleName}:${type}`;
      const sub: Subscriber =
        typeof handler === 'function'
          ? { name, handle: handler as Subscriber['handle'] }
          : { name, handle: handler.run as Subscriber['handle'], when: handler.when as Subscriber['when'] };
      if (this.byName.has(sub.name)) throw new Error(`event subscriber ${sub.name} registered twice`);
      this.byName.set(sub.name, sub);
      this.subscribers.set(type, [...(this.subscribers.get(type) ?? []), sub]);
    }
  }

  /** Writes an event in the caller's transaction (or alone, given the database); delivered after commit. */
  emit(trx: Db, event: DomainEvent): Promise<void> {
    return this.emitAll(trx, [event]);
  }

  /** Writes several events in the caller's transaction, a few statements for any number (bulk changes). */
  async emitAll(trx: Db, events: DomainEvent[]): Promise<void> {
    const now = Date.now();
    for (let i = 0; i < events.length; i += EMIT_CHUNK) {
      const part = events.slice(i, i + EMIT_CHUNK).map(({ type, ...payload }) => ({ type, data: EVENTS[type].parse(payload) as { tenant_id: number } }));
      const rows = await trx
        .insertInto('event')
        .values(part.map((e) => ({ tenant_id: e.data.tenant_id, type: e.type, payload: JSON.stringify(e.data), create_time: now })))
        .returning(['id', 'tenant_id', 'type'])
        .execute();
      // RETURNING promises no order; ids follow the order of the values, and deliveries follow the ids.
      rows.sort((a, b) => Number(a.id) - Number(b.id));
      const deliveries = rows.flatMap((r, k) => {
        const event = { type: part[k]!.type, ...part[k]!.data } as DomainEvent;
        return (this.subscribers.get(event.type) ?? [])
          .filter((s) => this.takes(s, event))
          .map((s) => ({ event_id: Number(r.id), tenant_id: r.tenant_id, subscriber: s.name, next_at: now, error: null, done_at: null }));
      });
      for (let k = 0; k < deliveries.length; k += EMIT_CHUNK) await trx.insertInto('event_delivery').values(deliveries.slice(k, k + EMIT_CHUNK)).execute();
      if (deliveries.length > 0) this.wake();
    }
  }

  /** Whether a subscriber gets a delivery of the event; a filter that throws is answered yes (the handler decides then). */
  private takes(s: Subscriber, event: DomainEvent): boolean {
    if (!s.when) return true;
    try {
      return s.when(event);
    } catch (err) {
      this.log.error({ err, subscriber: s.name }, 'events: a subscription filter failed; delivering the event');
      return true;
    }
  }

  start(ctx: C) {
    this.ctx = ctx;
    this.running = true;
    this.wake();
  }

  /** Stops taking deliveries and waits for the handlers that are running. */
  async stop() {
    this.running = false;
    clearTimeout(this.timer);
    await this.pass;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Runs passes until nothing is due and no handler runs (tests wait for the effects of their calls with it). */
  async settle(): Promise<void> {
    for (;;) {
      await this.pass;
      // A delivery held back behind a running one of its subscriber and tenant is not taken by this
      // pass; once the running one ends it is due, so a pass that saw anything running goes round again.
      const busy = this.inFlight.size > 0;
      const taken = await this.runPass();
      await Promise.allSettled([...this.inFlight]);
      if (taken === 0 && !busy && this.inFlight.size === 0) return;
    }
  }

  /** Looks for due deliveries now (and a few times soon, for a transaction still committing). */
  wake() {
    if (!this.running) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    // emit() wakes the dispatcher from inside a call: its passes (and the timers they set) must not
    // run in the call's audit scope, or the subscribers' writes would count as the call's changes.
    uncaptured(() => void this.loop(0));
  }

  private async loop(retry: number) {
    if (!this.running) return;
    let taken = 0;
    try {
      taken = await this.runPass();
    } catch (err) {
      this.log.error({ err }, 'events: dispatch pass failed');
    }
    if (!this.running) return;
    const again = this.again || taken >= this.opts.batch;
    this.again = false;
    // Woken during a pass that found nothing to take: a storm of emits (their deliveries mostly waiting
    // behind running chains) makes a pass at most every 20 ms, not one after another.
    if (again && taken > 0) return void this.loop(0);
    if (again) {
      this.timer = setTimeout(() => void this.loop(0), WAKE_RETRIES_MS[0]);
      this.timer.unref();
      return;
    }
    const delay = taken === 0 && retry < WAKE_RETRIES_MS.length ? WAKE_RETRIES_MS[retry]! : this.opts.pollMs;
    const next = taken === 0 && retry < WAKE_RETRIES_MS.length ? retry + 1 : WAKE_RETRIES_MS.length;
    this.timer = setTimeout(() => void this.loop(next), delay);
    this.timer.unref();
  }

  private runPass(): Promise<number> {
    if (this.pass) return this.pass;
    this.pass = this.takeDue().finally(() => (this.pass = undefined));
    return this.pass;
  }

  /** Takes the due deliveries (each the oldest pending of its subscriber and tenant) and starts them. */
  private async takeDue(): Promise<number> {
    const names = [...this.byName.keys()];
    if (names.length === 0 || this.ctx === undefined) return 0;
    const now = Date.now();
    // Each subscriber and tenant's oldest pending delivery, found by a skip scan over the index of pending
    // deliveries (migration 0046): one probe per group, however long a group's backlog (a pass that read
    // every pending row to find each one's oldest read thousands behind one tenant's running chain).
    // SQLite, without statistics, would take the (state, next_at) index and sort every pending row: it
    // is told which index; the cross joins keep it from starting with every delivery of the subscribers.
    const pending = this.dialect === 'sqlite' ? sql`event_delivery p indexed by event_delivery_pending` : sql`event_delivery p`;
    const { rows: due } = await sql<DueDelivery>`
      with recursive head(id) as (
        select (select p.id from ${pending} where p.state = 'pending' order by p.subscriber, p.tenant_id, p.id limit 1)
        union all
        select (
          select p.id from ${pending}
          where p.state = 'pending' and (p.subscriber, p.tenant_id) > (h.subscriber, h.tenant_id)
          order by p.subscriber, p.tenant_id, p.id limit 1)
        from head
        cross join event_delivery h
        where h.id = head.id
      )
      select d.id, d.subscriber, d.tenant_id, d.attempts, e.id as event_id, e.type, e.payload, e.create_time
      from head
      cross join event_delivery d
      cross join event e
      where d.id = head.id and e.id = d.event_id
        and d.next_at <= ${now} and d.lease_until <= ${now} and d.subscriber in (${sql.join(names)})
      order by d.id
      limit ${this.opts.batch}`.execute(this.db);
    if (due.length === 0) return 0;
    // Claimed in one transaction: a commit each was most of what a pass cost in a burst.
    const claimed = await this.db.transaction().execute(async (trx) => {
      const mine: DueDelivery[] = [];
      for (const d of due) if (await this.claim(trx, Number(d.id), now)) mine.push(d);
      return mine;
    });
    for (const d of claimed) {
      const run = this.chain(d);
      this.inFlight.add(run);
      void run.finally(() => this.inFlight.delete(run));
    }
    return claimed.length;
  }

  private async claim(db: Db, id: number, now: number): Promise<boolean> {
    const claimed = await db
      .updateTable('event_delivery')
      .set({ lease_until: now + this.opts.leaseMs })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .where('lease_until', '<=', now)
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }

  /** Runs a claimed delivery, then the next ones of its subscriber and tenant while they are due and free (CHAIN_MAX). */
  private async chain(first: DueDelivery): Promise<void> {
    let d: DueDelivery | undefined = first;
    for (let n = 1; d; n++) {
      const event = { type: d.type, ...JSON.parse(d.payload) } as DomainEvent;
      if (!(await this.deliver(Number(d.id), d.subscriber, Number(d.attempts), event, { eventId: Number(d.event_id), at: Number(d.create_time) }))) return;
      // The next one is claimed only to be run here: past CHAIN_MAX it is left for a pass.
      d = await this.finish(d, this.running && n < CHAIN_MAX).catch((err: unknown) => {
        this.log.error({ err, subscriber: first.subscriber }, 'events: could not record a finished delivery (it comes again when its lease runs out)');
        return undefined;
      });
    }
  }

  /** Marks a delivery done and, with `more`, claims the next one of its subscriber and tenant: one commit for both. */
  private finish(d: DueDelivery, more: boolean): Promise<DueDelivery | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await trx.updateTable('event_delivery').set({ state: 'done', done_at: Date.now(), lease_until: 0, error: null }).where('id', '=', Number(d.id)).execute();
      return more ? this.nextOf(trx, d.subscriber, d.tenant_id) : undefined;
    });
  }

  /** The oldest pending delivery of a subscriber and tenant, claimed, if it is due and nobody holds it. */
  private async nextOf(db: Db, subscriber: string, tenantId: number): Promise<DueDelivery | undefined> {
    const now = Date.now();
    const next = await db
      .selectFrom('event_delivery as d')
      .innerJoin('event as e', 'e.id', 'd.event_id')
      .select(['d.id', 'd.subscriber', 'd.tenant_id', 'd.attempts', 'd.next_at', 'd.lease_until', 'e.id as event_id', 'e.type', 'e.payload', 'e.create_time'])
      .where('d.subscriber', '=', subscriber)
      .where('d.tenant_id', '=', tenantId)
      .where('d.state', '=', 'pending')
      .orderBy('d.id')
      .limit(1)
      .executeTakeFirst();
    if (!next || Number(next.next_at) > now || Number(next.lease_until) > now) return undefined;
    return (await this.claim(db, Number(next.id), now)) ? next : undefined;
  }

  /** Runs the subscriber; whether it succeeded (chain() marks it done), else its failure is recorded. */
  private async deliver(id: number, subscriber: string, attempts: number, event: DomainEvent, meta: EventMeta): Promise<boolean> {
    const sub = this.byName.get(subscriber)!;
    const metrics = metricsOf(this.ctx);
    const lag = Date.now() - meta.at;
    try {
      await sub.handle(event, this.ctx, meta);
      metrics?.observeDelivery('done', attempts === 0, lag);
      return true;
    } catch (err) {
      const tries = attempts + 1;
      const error = (err instanceof Error ? err.message : String(err)).slice(0, ERROR_MAX);
      const dead = tries >= this.opts.maxAttempts;
      const wait = Math.min(this.opts.backoffMs * 2 ** (tries - 1), this.opts.maxBackoffMs);
      const log = { err, subscriber, eventType: event.type, tenantId: event.tenant_id, attempts: tries };
      metrics?.observeDelivery(dead ? 'dead' : 'retry', attempts === 0, lag);
      if (dead) this.log.error(log, 'events: subscriber failed for the last time; delivery given up');
      else this.log.warn({ ...log, retryInMs: wait }, 'events: subscriber failed; will retry');
      await this.db
        .updateTable('event_delivery')
        .set({ attempts: tries, error, lease_until: 0, next_at: Date.now() + wait, ...(dead ? { state: 'dead' as const } : {}) })
        .where('id', '=', id)
        .execute()
        .catch((e: unknown) => this.log.error({ err: e, subscriber }, 'events: could not record a failed delivery (its lease will run out)'));
      return false;
    }
  }

  /**
   * Deletes events older than `olderThanMs` whose deliveries are all finished (done or given up),
   * and returns how many went; the housekeeping job calls it.
   */
  async trim(olderThanMs: number): Promise<number> {
    const before = Date.now() - olderThanMs;
    const res = await this.db
      .deleteFrom('event')
      .where('create_time', '<', before)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('event_delivery as d').select(sql`1`.as('one')).whereRef('d.event_id', '=', 'event.id').where('d.state', '=', 'pending'))),
      )
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
