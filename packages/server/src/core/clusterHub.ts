import cluster, { type Worker } from 'node:cluster';
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { PubSub, Unsubscribe } from './pubsub';
import { MemoryStore, type KvStore } from './store';

/**
 * Without Redis, the server processes of one machine (HUBLINK_WORKERS) share their store (captchas,
 * codes' proofs, rate limits, turns) and their pub/sub (device commands, traffic streams) through the
 * primary process: it keeps the one MemoryStore and relays every published message to every worker,
 * over node:cluster's IPC channel. With Redis, the workers use Redis as separate instances would.
 */

const KV_OPS = ['get', 'set', 'take', 'del', 'incr', 'decr'] as const;
type KvOp = (typeof KV_OPS)[number];

type HubMessage =
  | { hub: 'kv'; id: number; op: KvOp; args: unknown[] }
  | { hub: 'kv-reply'; id: number; value?: unknown; error?: string }
  | { hub: 'pub'; channel: string; message: unknown };

const isHubMessage = (m: unknown): m is HubMessage => typeof m === 'object' && m !== null && typeof (m as { hub?: unknown }).hub === 'string';

/** A store call that has no answer within this long fails (the primary is gone or stuck). */
const KV_TIMEOUT_MS = 5000;

/** The primary's side: answers the workers' store calls from one MemoryStore and relays publications. */
export function serveHub(log: Pick<FastifyBaseLogger, 'error'>): { close(): Promise<void> } {
  const store = new MemoryStore();
  const onMessage = (worker: Worker, m: unknown) => {
    if (!isHubMessage(m)) return;
    if (m.hub === 'pub') {
      for (const w of Object.values(cluster.workers ?? {})) if (w?.isConnected()) w.send(m);
      return;
    }
    if (m.hub !== 'kv' || !KV_OPS.includes(m.op)) return;
    const call = (store[m.op] as (...a: unknown[]) => Promise<unknown>).apply(store, m.args);
    call.then(
      (value) => worker.isConnected() && worker.send({ hub: 'kv-reply', id: m.id, value: value ?? null }),
      (err: unknown) => {
        log.error({ err }, 'workers: a store call failed');
        if (worker.isConnected()) worker.send({ hub: 'kv-reply', id: m.id, error: String(err) });
      },
    );
  };
  cluster.on('message', onMessage);
  return {
    async close() {
      cluster.off('message', onMessage);
      await store.close();
    },
  };
}

/** Messages from the primary to this worker, by kind; one listener on the process for both clients. */
const fromPrimary = new EventEmitter().setMaxListeners(0);
let listening = false;
function listenToPrimary() {
  if (listening) return;
  listening = true;
  process.on('message', (m: unknown) => {
    if (isHubMessage(m)) fromPrimary.emit(m.hub, m);
  });
}

function sendToPrimary(m: HubMessage) {
  if (!process.send || !process.connected) throw new Error('workers: the primary process is gone');
  process.send(m);
}

/** Ids of store calls, unique in the process: every store of the process sees every reply. */
let nextCallId = 1;

/** A worker's store: every call answered by the primary's. */
export class ClusterStore implements KvStore {
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }>();
  private readonly onReply = (m: Extract<HubMessage, { hub: 'kv-reply' }>) => {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.error !== undefined) p.reject(new Error(`workers: store call failed in the primary: ${m.error}`));
    else p.resolve(m.value);
  };

  constructor() {
    listenToPrimary();
    fromPrimary.on('kv-reply', this.onReply);
  }

  private call<T>(op: KvOp, ...args: unknown[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const id = nextCallId++;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`workers: no answer from the primary to a store ${op}`));
      }, KV_TIMEOUT_MS);
      timer.unref();
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      try {
        sendToPrimary({ hub: 'kv', id, op, args });
      } catch (e) {
        this.pending.delete(id);
        clearTimeout(timer);
        reject(e as Error);
      }
    });
  }

  get(key: string) {
    return this.call<string | null>('get', key);
  }
  async set(key: string, value: string, ttlSeconds: number) {
    await this.call('set', key, value, ttlSeconds);
  }
  take(key: string) {
    return this.call<string | null>('take', key);
  }
  async del(key: string) {
    await this.call('del', key);
  }
  incr(key: string, ttlSeconds: number) {
    return this.call<number>('incr', key, ttlSeconds);
  }
  async decr(key: string) {
    await this.call('decr', key);
  }
  async close() {
    fromPrimary.off('kv-reply', this.onReply);
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(new Error('workers: the store was closed'));
    }
    this.pending.clear();
  }
}

/** A worker's pub/sub: published through the primary, which hands the message to every worker, this one included. */
export class ClusterPubSub implements PubSub {
  private readonly local = new EventEmitter().setMaxListeners(0);
  private readonly onPub = (m: Extract<HubMessage, { hub: 'pub' }>) => {
    for (const h of this.local.listeners(m.channel) as ((message: unknown) => void)[]) {
      try {
        h(m.message);
      } catch (err) {
        this.log.error({ err, channel: m.channel }, 'pubsub: a subscriber failed');
      }
    }
  };

  constructor(private readonly log: FastifyBaseLogger) {
    listenToPrimary();
    fromPrimary.on('pub', this.onPub);
  }

  async publish(channel: string, message: unknown) {
    // Copied as JSON here, as Redis would: what a subscriber gets never shares objects with the publisher.
    sendToPrimary({ hub: 'pub', channel, message: JSON.parse(JSON.stringify(message)) as unknown });
  }

  async subscribe(channel: string, handler: (message: unknown) => void): Promise<Unsubscribe> {
    this.local.on(channel, handler);
    return async () => void this.local.off(channel, handler);
  }

  async close() {
    fromPrimary.off('pub', this.onPub);
    this.local.removeAllListeners();
  }
}

/** Whether this process is one of several workers that share through the primary (no Redis to share through). */
export const sharesThroughPrimary = (redisUrl: string | undefined) => cluster.isWorker && !redisUrl;
