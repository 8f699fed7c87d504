import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandError, findCommand, localHost, namespaceHost } from './commands';
import { HostLab, requireHostTools } from './testLab';

describe('localHost', () => {
  const host = localHost();

  it('returns stdout and passes input on stdin', async () => {
    expect(await host.run('echo', ['a', 'b'])).toBe('a b\n');
    expect(await host.run('cat', [], 'line\n')).toBe('line\n');
  });

  it('rejects with the command line and its stderr', async () => {
    const error = await host.run('sh', ['-c', 'echo broken >&2; exit 3']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandError);
    expect((error as CommandError).message).toBe('sh -c echo broken >&2; exit 3 failed (3): broken');
    expect((error as CommandError).stderr).toBe('broken\n');
  });

  it('names a command that is not installed', async () => {
    await expect(host.run('hublink-no-such-tool', ['x'])).rejects.toThrow(/hublink-no-such-tool x failed.*ENOENT/);
  });

  it('finds ip in the system directories when PATH lacks them', () => {
    requireHostTools();
    expect(findCommand('ip', '')).toMatch(/^\/(usr\/)?s?bin\/ip$/);
    expect(findCommand('hublink-no-such-tool', '')).toBeNull();
  });
});

describe('namespaceHost', () => {
  const lab = new HostLab('hlcmd');
  let ns = '';

  beforeAll(async () => {
    requireHostTools();
    await lab.removeLeftovers();
    ns = await lab.namespace('n');
  });
  afterAll(() => lab.close());

  it('runs the command inside the namespace', async () => {
    const links = JSON.parse(await namespaceHost(ns).run('ip', ['-j', 'link', 'show'])) as { ifname: string }[];
    expect(links.map((l) => l.ifname)).toEqual(['lo']);
  });

  it('names the namespace in its errors', async () => {
    await expect(namespaceHost(ns).run('ip', ['link', 'show', 'dev', 'nosuch0'])).rejects.toThrow(`ip netns exec ${ns} ip link show dev nosuch0 failed (1): Device "nosuch0" does not exist.`);
  });
});
