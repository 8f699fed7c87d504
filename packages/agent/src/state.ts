import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the CLI agent keeps its credential (and, in OpenVPN mode, each network's files). */
export function defaultStateDir(name: string): string {
  const base = process.env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state');
  return join(base, 'hublink-agent', name.replace(/[^A-Za-z0-9._@-]/g, '_'));
}

export class StateDir {
  constructor(readonly path: string) {
    mkdirSync(path, { recursive: true, mode: 0o700 });
  }

  readCredential(): string | undefined {
    try {
      const text = readFileSync(join(this.path, 'credential'), 'utf8').trim();
      return text || undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The device's own id, made once (a random UUID) and kept here, so the tenant can approve this device
   * and recognise it later (issue 30). A new state directory is a new device.
   */
  deviceId(): string {
    const file = join(this.path, 'device-id');
    try {
      const text = readFileSync(file, 'utf8').trim();
      if (/^[A-Za-z0-9-]{8,64}$/.test(text)) return text;
    } catch {
      // none yet
    }
    const id = randomUUID();
    writeFileSync(file, `${id}\n`, { mode: 0o600 });
    return id;
  }

  /** The credential signs the device in as the member: only its owner may read it. */
  saveCredential(credential: string | undefined): void {
    const file = join(this.path, 'credential');
    if (credential === undefined) {
      rmSync(file, { force: true });
      return;
    }
    writeFileSync(file, `${credential}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
}
