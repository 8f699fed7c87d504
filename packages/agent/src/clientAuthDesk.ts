import type { ClientAuthMessage, ClientAuthResultMessage } from '@hublink/contract';
import { PLATFORM_UNREACHABLE, type ClientAuthAnswer, type ClientAuthFinal, type ClientAuthRequest } from './openvpn/clientAuth';

/** How long a center waits for the platform's answer before it refuses the client (fails closed). */
export const CLIENT_AUTH_WAIT_MS = 10_000;
/** A pending (web) sign-in gets this much longer than the time the platform gave it. */
const PENDING_GRACE_MS = 5_000;

const unreachable: ClientAuthFinal = { verdict: 'deny', reason: 'the platform cannot be reached', clientReason: PLATFORM_UNREACHABLE };

interface Open {
  resolve: (a: ClientAuthAnswer | ClientAuthFinal) => void;
  timer: ReturnType<typeof setTimeout>;
  /** Set once the platform said pending: the next answer is the final one. */
  pending: boolean;
}

/**
 * A center's questions to the platform about its software service's clients (client_auth), matched to
 * the answers (client_auth_result) by id. A question that cannot be sent, or is not answered in time, is
 * refused: a client is admitted only by the platform's word (docs/decisions.md, "Standard clients").
 */
export class ClientAuthDesk {
  private readonly open = new Map<string, Open>();
  private seq = 0;

  constructor(private readonly send: (message: ClientAuthMessage) => boolean) {}

  ask(networkNumber: string, r: ClientAuthRequest): Promise<ClientAuthAnswer> {
    const id = `ca-${++this.seq}`;
    const sent = this.send({
      type: 'client_auth',
      id,
      network_number: networkNumber,
      common_name: r.commonName.slice(0, 64),
      serial: r.serial.slice(0, 64),
      username: r.username.slice(0, 128),
      password: r.password.slice(0, 256),
      orig: r.orig.slice(0, 64),
      reauth: r.reauth,
      platform: r.platform.slice(0, 64),
      client_version: r.clientVersion.slice(0, 128),
      sso: r.sso.slice(0, 128),
      hwaddr: r.hwaddr.slice(0, 64),
    });
    if (!sent) return Promise.resolve(unreachable);
    return this.wait(id, CLIENT_AUTH_WAIT_MS);
  }

  onResult(m: ClientAuthResultMessage): void {
    const o = this.open.get(m.id);
    if (!o) return;
    clearTimeout(o.timer);
    this.open.delete(m.id);
    if (m.verdict === 'pending' && !o.pending) {
      const final = this.wait(m.id, m.timeout * 1000 + PENDING_GRACE_MS, true) as Promise<ClientAuthFinal>;
      o.resolve({ verdict: 'pending', url: m.url, timeout: m.timeout, final });
      return;
    }
    o.resolve(m.verdict === 'accept' ? { verdict: 'accept' } : { verdict: 'deny', reason: m.reason || 'refused', clientReason: m.client_reason });
  }

  /** The connection to the platform went: nothing open will be answered now. */
  dropAll(): void {
    for (const [id, o] of this.open) {
      clearTimeout(o.timer);
      this.open.delete(id);
      o.resolve(unreachable);
    }
  }

  private wait(id: string, ms: number, pending = false): Promise<ClientAuthAnswer> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.open.delete(id);
        resolve(unreachable);
      }, ms);
      timer.unref?.();
      this.open.set(id, { resolve, timer, pending });
    });
  }
}
