import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localHost, namespaceHost } from './commands';
import { dnsManager } from './dns';
import { HostLab, NETNS_ETC, requireHostTools } from './testLab';

/*
 * `ip netns exec <ns>` bind-mounts /etc/netns/<ns>/resolv.conf over /etc/resolv.conf: what a process in
 * the namespace resolves with. An agent in the host's namespace writes that file directly; an agent run
 * inside the namespace writes /etc/resolv.conf, a mount point there, which can only be written in place.
 */
const HOST_RESOLV_CONF = '/etc/resolv.conf';
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const dnsModule = fileURLToPath(new URL('./dns.ts', import.meta.url));
const commandsModule = fileURLToPath(new URL('./commands.ts', import.meta.url));

describe('the file method for a namespace', () => {
  const lab = new HostLab('hldns');
  const host = localHost();
  let ns = '';
  let dir = '';
  let nsResolvConf = '';
  let original = '';
  let hostBefore: string | null = null;
  const nsView = () => host.run('ip', ['netns', 'exec', ns, 'cat', HOST_RESOLV_CONF]);

  beforeAll(async () => {
    requireHostTools();
    hostBefore = existsSync(HOST_RESOLV_CONF) ? readFileSync(HOST_RESOLV_CONF, 'utf8') : null;
    await lab.removeLeftovers();
    ns = await lab.namespace('d');
    dir = mkdtempSync(join(tmpdir(), 'hublink-dns-ns-'));
    // /etc/netns itself stays: other labs may be using it.
    mkdirSync(join(NETNS_ETC, ns), { recursive: true });
    nsResolvConf = join(NETNS_ETC, ns, 'resolv.conf');
    // The comment tells this file from the host's: a script in the namespace checks it before writing.
    original = `# the resolver of ${ns}\nnameserver 198.51.100.53\n`;
    writeFileSync(nsResolvConf, original);
    expect(await nsView()).toBe(original);
  });
  afterAll(async () => {
    await lab.close();
    rmSync(dir, { recursive: true, force: true });
    expect(existsSync(HOST_RESOLV_CONF) ? readFileSync(HOST_RESOLV_CONF, 'utf8') : null).toBe(hostBefore);
  });

  it("from the host's namespace: the namespace's own resolv.conf", async () => {
    const stateDir = mkdtempSync(join(dir, 'state-'));
    const dns = dnsManager({ method: 'file', resolvConf: nsResolvConf, stateDir, host: namespaceHost(ns) });
    await dns.apply(['192.0.2.53'], 'hl0');
    expect(await nsView()).toMatch(/^nameserver 192\.0\.2\.53\nnameserver 198\.51\.100\.53\n# the resolver/m);
    await dns.restore();
    expect(await nsView()).toBe(original);
  });

  it('from inside the namespace: /etc/resolv.conf, a bind mount, written in place', async () => {
    const stateDir = mkdtempSync(join(dir, 'state-'));
    // .mts: an ES module (top-level await) outside any package.
    const script = join(dir, 'agent-dns.mts');
    writeFileSync(
      script,
      `import { readFileSync } from 'node:fs';
import { dnsManager } from ${JSON.stringify(dnsModule)};
import { localHost } from ${JSON.stringify(commandsModule)};
const [action, stateDir, marker] = process.argv.slice(2);
// Never the host's file: only the namespace's carries the marker.
if (!readFileSync('/etc/resolv.conf', 'utf8').includes(marker)) throw new Error('not the namespace resolv.conf');
const dns = dnsManager({ method: 'file', resolvConf: '/etc/resolv.conf', stateDir, host: localHost() });
if (action === 'apply') console.log(await dns.apply(['192.0.2.53'], 'hl0'));
else await dns.restore();
`,
    );
    const inside = (action: string) => host.run('ip', ['netns', 'exec', ns, process.execPath, tsx, script, action, stateDir, `# the resolver of ${ns}`]);
    expect(await inside('apply')).toBe(`DNS: 192.0.2.53 written to ${HOST_RESOLV_CONF}\n`);
    expect(readFileSync(nsResolvConf, 'utf8')).toMatch(/^nameserver 192\.0\.2\.53$/m);
    expect(await nsView()).toBe(readFileSync(nsResolvConf, 'utf8'));
    expect(existsSync(`${HOST_RESOLV_CONF}.hublink-new`)).toBe(false);
    await inside('restore');
    expect(await nsView()).toBe(original);
  });
});
