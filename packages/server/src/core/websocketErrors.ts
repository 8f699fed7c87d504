import type { WebSocket } from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import { pathOf } from './requestLog';

/** Lines about clients' bad frames: at most one per address in this long. */
export const BAD_FRAME_LOG_WINDOW_MS = 60_000;
/**
 * Addresses the throttle remembers at once. Past them, the addresses it has no room for share one line
 * per window, so a flood from many addresses writes at most this many lines (and one more) a window,
 * and the throttle never holds more entries than that.
 */
export const BAD_FRAME_LOG_ADDRESSES = 256;

/** The key the addresses share that the throttle had no room for. */
export const OTHER_ADDRESSES = 'other addresses';

/**
 * One line per key and window, counting what it holds back: take() answers null while the key's window
 * runs (counted), else the number held back since its last line, and starts a new window. Bounded:
 * windows are all as long, so the map's order (a key moves to the end when its window starts) is the
 * order they end in, and the ended ones at its front make room for new keys.
 */
export class LogThrottle {
  private readonly windows = new Map<string, { until: number; held: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys: number,
  ) {}

  take(key: string, now = Date.now()): { key: string; held: number } | null {
    const k = this.windows.has(key) || this.room(now) ? key : OTHER_ADDRESSES;
    const w = this.windows.get(k);
    if (w && w.until > now) {
      w.held++;
      return null;
    }
    this.windows.delete(k);
    this.windows.set(k, { until: now + this.windowMs, held: 0 });
    return { key: k, held: w?.held ?? 0 };
  }

  /** Keys held now (the bound's test). */
  get size(): number {
    return this.windows.size;
  }

  private room(now: number): boolean {
    if (this.windows.size < this.maxKeys) return true;
    for (const [k, w] of this.windows) {
      if (w.until > now) break;
      this.windows.delete(k);
    }
    return this.windows.size < this.maxKeys;
  }
}

/** ws names what a client's frame broke (a reserved opcode, an unmasked frame, a message over the limit, bad UTF-8, …) with a code like this. */
const isBadFrame = (err: Error & { code?: unknown }) => typeof err.code === 'string' && err.code.startsWith('WS_ERR_');

/** A client that went away mid-frame: nothing for anyone to act on. */
const GONE = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED']);

/**
 * @fastify/websocket's errorHandler: what goes wrong on an open WebSocket. Its default logs every error
 * at error level with a stack, so each malformed frame of an unauthenticated client was an error line.
 * Now a client's bad frame is a warn line without a stack, at most one per address a minute (how many
 * were held back is in the next one); a client gone mid-frame is a debug line; a handler that threw is
 * the server's fault and stays an error with its stack. The socket is dropped in every case (ws has
 * already sent a bad frame's close code).
 */
export function websocketErrorHandler(throttle = new LogThrottle(BAD_FRAME_LOG_WINDOW_MS, BAD_FRAME_LOG_ADDRESSES)) {
  return (err: Error & { code?: unknown }, socket: WebSocket, req: FastifyRequest): void => {
    if (isBadFrame(err)) {
      const line = throttle.take(req.ip);
      if (line) {
        req.log.warn(
          { remoteAddress: line.key, url: pathOf(req.url), code: err.code, reason: err.message, heldBack: line.held },
          'websocket: a client sent a frame the protocol does not allow; the connection is closed',
        );
      }
    } else if (typeof err.code === 'string' && GONE.has(err.code)) {
      req.log.debug({ remoteAddress: req.ip, code: err.code }, 'websocket: the client went away');
    } else {
      req.log.error({ err, url: pathOf(req.url) }, 'websocket: the handler failed');
    }
    socket.terminate();
  };
}
