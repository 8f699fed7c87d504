import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

export type Unsubscribe = () => Promise<void>;

/**
 * Fan-out between instances: what one instance publishes on a channel reaches the subscribers of
 * that channel on every instance, itself included. Fire and forget (no history, no acknowledgement):
 * for live things such as device commands and traffic streams; what must not be lost is an event.
 * Messages are JSON values.
 */
export interface PubSub {
  publish(channel: string, message: unknown): Promise<void>;
  subscribe(channel: string, handler: (message: unknown) => void): Promise<Unsubscribe>;
  close(): Promise<void>;
}

/** One process: the channel is an EventEmitter event; the message is copied as JSON, as Redis would. */
export class MemoryPubSub implements PubSub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  constructor(private readonly log: FastifyBaseLogger) {}

  async publish(channel: string, message: unknown) {
    const copy: unknown = JSON.parse(JSON.stringify(message));
    for (const h of this.emitter.listeners(channel) as ((m: unknown) => void)[]) {
      try {
        h(copy);
      } catch (err) {
        this.log.error({ err, channel }, 'pubsub: a subscriber failed');
      }
    }
  }

  async subscribe(channel: string, handler: (message: unknown) => void): Promise<Unsubscribe> {
    this.emitter.on(channel, handler);
    return async () => void this.emitter.off(channel, handler);
  }

  async close() {
    this.emitter.removeAllListeners();
  }
}

/**
 * Redis channels (prefixed, so instances of other deployments on the same Redis stay apart). One
 * connection publishes (the app's shared client) and one, opened on the first subscribe, listens:
 * a Redis connection in subscriber mode can do nothing else.
 */
export class RedisPubSub implements PubSub {
  private listener: Redis | undefined;
  private readonly handlers = new Map<string, Set<(message: unknown) => void>>();

  constructor(
    private readonly client: Redis,
    private readonly log: FastifyBaseLogger,
    private readonly prefix = 'hublink:',
  ) {}

  async publish(channel: string, message: unknown) {
    await this.client.publish(this.prefix + channel, JSON.stringify(message));
  }

  async subscribe(channel: string, handler: (message: unknown) => void): Promise<Unsubscribe> {
    const key = this.prefix + channel;
    const listener = this.listen();
    let set = this.handlers.get(key);
    if (!set) {
      set = new Set();
      this.handlers.set(key, set);
      await listener.subscribe(key);
    }
    set.add(handler);
    return async () => {
      const s = this.handlers.get(key);
      if (!s?.delete(handler) || s.size > 0) return;
      this.handlers.delete(key);
      await listener.unsubscribe(key);
    };
  }

  private listen(): Redis {
    if (this.listener) return this.listener;
    const listener = this.client.duplicate();
    listener.on('message', (channel: string, raw: string) => {
      let message: unknown;
      try {
        message = JSON.parse(raw);
      } catch {
        return this.log.warn({ channel }, 'pubsub: a message that is not JSON was dropped');
      }
      for (const h of this.handlers.get(channel) ?? []) {
        try {
          h(message);
        } catch (err) {
          this.log.error({ err, channel }, 'pubsub: a subscriber failed');
        }
      }
    });
    listener.on('error', (err) => this.log.error({ err }, 'pubsub: redis connection error'));
    this.listener = listener;
    return listener;
  }

  async close() {
    this.handlers.clear();
    await this.listener?.quit();
    this.listener = undefined;
  }
}
