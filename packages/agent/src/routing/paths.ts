import type { Timers } from './config';

/*
 * Which paths are up and may carry traffic. A path is one OpenVPN instance of a network (a point's
 * tunnel, a center's link) or one client of a center's server. A path that comes up for the first time
 * is used at once; one that went down before is held down first, and longer the more often it went down
 * lately, so a flapping center does not bounce its points back and forth (docs/networking.md, "Failover").
 */

interface State {
  up: boolean;
  /** When it last went up (or down). */
  since: number;
  /** When it went down, within the flap window. */
  downs: number[];
  /** It was up at least once. */
  wasUp: boolean;
}

export const pathKey = (network: string, instance: string, client: string | null = null) => `${network}\n${instance}\n${client ?? ''}`;

export class Paths {
  private readonly states = new Map<string, State>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Records a path's state; returns whether it changed. */
  set(key: string, up: boolean, timers: Timers): boolean {
    const now = this.now();
    const s = this.states.get(key);
    if (!s) {
      if (!up) return false;
      this.states.set(key, { up: true, since: now, downs: [], wasUp: false });
      return true;
    }
    if (s.up === up) return false;
    s.up = up;
    s.since = now;
    if (!up) {
      s.downs = [...s.downs.filter((t) => now - t < timers.flap_window * 1000), now];
      s.wasUp = true;
    }
    return true;
  }

  isUp(key: string): boolean {
    return this.states.get(key)?.up === true;
  }

  /** How long a path that is up now is held down before use, in ms (0: usable at once). */
  holdDownMs(key: string, timers: Timers): number {
    const s = this.states.get(key);
    if (!s?.up || !s.wasUp) return 0;
    const recent = s.downs.filter((t) => this.now() - t < timers.flap_window * 1000).length;
    const seconds = Math.min(timers.hold_down_max, timers.hold_down * 2 ** Math.max(0, recent - 1));
    return Math.max(0, s.since + seconds * 1000 - this.now());
  }

  state(key: string, timers: Timers): 'ready' | 'held' | 'down' {
    if (!this.isUp(key)) return 'down';
    return this.holdDownMs(key, timers) === 0 ? 'ready' : 'held';
  }

  /** Marks down every path of an instance that is gone (a tunnel no longer in the configuration), keeping its history. */
  forgetInstance(network: string, instance: string): void {
    for (const [key, s] of this.states) if (key.startsWith(`${network}\n${instance}\n`) && s.up) s.up = false;
  }

  /** Forgets every path of a network (it left). */
  forget(network: string): void {
    for (const key of [...this.states.keys()]) if (key.startsWith(`${network}\n`)) this.states.delete(key);
  }
}
