import { lstat, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { DnsManager } from './dns';
import { composeResolvConf, RESOLV_CONF_HEADER } from './resolvConfText';

/** The original resolv.conf, kept in the state directory while the agent's is in place. */
export const SAVED_RESOLV_CONF = 'resolv.conf.hublink-saved';
/** Where the original pointed when it was a symbolic link (to systemd-resolved's or resolvconf's file). */
const SAVED_LINK = 'resolv.conf.hublink-saved-link';
const FILE_MODE = 0o644;

async function readOrNull(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

async function linkTarget(file: string): Promise<string | null> {
  try {
    return (await lstat(file)).isSymbolicLink() ? await readlink(file) : null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Whether `file` is a mount point, from the mount table's fifth field (with its octal escapes, \040 for a space). */
async function isMountPoint(file: string): Promise<boolean> {
  const table = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  const target = resolve(file);
  return table.split('\n').some((line) => line.split(' ')[4]?.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))) === target);
}

/**
 * Replaces `file` through a temporary file and a rename, so a reader never sees half of it. `ip netns
 * exec` bind-mounts /etc/netns/<ns>/resolv.conf over /etc/resolv.conf, and nothing can be renamed over a
 * mount point (EBUSY): then the file is written in place, without a temporary file beside it (in the
 * host's /etc).
 */
async function replaceFile(file: string, text: string): Promise<void> {
  if (await isMountPoint(file)) {
    await writeFile(file, text);
    return;
  }
  const temp = `${file}.hublink-new`;
  await writeFile(temp, text, { mode: FILE_MODE });
  try {
    await rename(temp, file);
  } catch (e) {
    await rm(temp, { force: true });
    if ((e as NodeJS.ErrnoException).code !== 'EBUSY') throw e;
    await writeFile(file, text);
  }
}

async function replaceWithLink(file: string, target: string): Promise<void> {
  const temp = `${file}.hublink-new`;
  await rm(temp, { force: true });
  await symlink(target, temp);
  await rename(temp, file);
}

/**
 * The agent owns `resolvConf` while it holds a network: the original is saved (once) in `stateDir`
 * before the first write and written back by restore(), also by the restore() of the next start after a
 * crash. A file that someone else rewrote meanwhile is theirs: it becomes the original on apply and is
 * left alone on restore. A missing original is restored as an empty file.
 */
export function fileDns(resolvConf: string, stateDir: string): DnsManager {
  const saved = join(stateDir, SAVED_RESOLV_CONF);
  const savedLink = join(stateDir, SAVED_LINK);

  async function save(current: string): Promise<void> {
    const target = await linkTarget(resolvConf);
    if (target === null) await rm(savedLink, { force: true });
    else await replaceFile(savedLink, target);
    // The saved copy last: its presence says the file is the agent's until restored.
    await replaceFile(saved, current);
  }

  async function restore(): Promise<void> {
    const original = await readOrNull(saved);
    if (original === null) return;
    const current = (await linkTarget(resolvConf)) === null ? await readOrNull(resolvConf) : null;
    if (current?.startsWith(RESOLV_CONF_HEADER)) {
      const target = await readOrNull(savedLink);
      if (target === null) await replaceFile(resolvConf, original);
      else await replaceWithLink(resolvConf, target);
    }
    await rm(saved);
    await rm(savedLink, { force: true });
  }

  return {
    async apply(servers, device) {
      if (servers.length === 0) {
        await restore();
        return `DNS: ${resolvConf} restored`;
      }
      const current = (await readOrNull(resolvConf)) ?? '';
      const original = current.startsWith(RESOLV_CONF_HEADER) ? await readOrNull(saved) : null;
      if (original === null) await save(current);
      await replaceFile(resolvConf, composeResolvConf(original ?? current, servers, device));
      return `DNS: ${servers.join(', ')} written to ${resolvConf}`;
    },
    restore,
  };
}
