import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostCommands } from './commands';
import { MAIN_TABLE, replaceRoute, routeGet } from './routes';
import { deleteRule, ensureRule, flushOwnRules, readOwnRules, RULE_PRIORITY_FIRST } from './rules';
import { HostLab, requireHostTools } from './testLab';

const TABLE = 100;

describe('the agent policy rules', () => {
  const lab = new HostLab('hlrule');
  let host: HostCommands;
  let ns = '';
  const ip = (...args: string[]) => host.run('ip', args);

  beforeAll(async () => {
    requireHostTools();
    await lab.removeLeftovers();
    ns = await lab.namespace('r');
    host = lab.commands(ns);
    await lab.tun(ns, 'hlt0');
    await lab.tun(ns, 'hlt1');
  });
  afterAll(() => lab.close());
  afterEach(() => flushOwnRules(host));

  it('adds a rule once however often it is ensured, and reads it back as written', async () => {
    const rule = { iif: 'hlt0', table: TABLE, priority: RULE_PRIORITY_FIRST };
    const suppressing = { iif: 'hlt1', table: MAIN_TABLE, priority: RULE_PRIORITY_FIRST + 1, suppressPrefixLength: 0 };
    for (let i = 0; i < 2; i++) {
      await ensureRule(host, rule);
      await ensureRule(host, suppressing);
    }
    expect(await readOwnRules(host)).toEqual([rule, suppressing]);
    expect(await ip('rule', 'show')).toContain(`${RULE_PRIORITY_FIRST + 1}:\tfrom all iif hlt1 lookup main suppress_prefixlength 0 proto 157`);
  });

  it('tells a suppressing rule from one that is not', async () => {
    await ensureRule(host, { iif: 'hlt0', table: TABLE, priority: RULE_PRIORITY_FIRST });
    await ensureRule(host, { iif: 'hlt0', table: TABLE, priority: RULE_PRIORITY_FIRST, suppressPrefixLength: 0 });
    expect(await readOwnRules(host)).toHaveLength(2);
    await deleteRule(host, { iif: 'hlt0', table: TABLE, priority: RULE_PRIORITY_FIRST, suppressPrefixLength: 0 });
    expect(await readOwnRules(host)).toEqual([{ iif: 'hlt0', table: TABLE, priority: RULE_PRIORITY_FIRST }]);
  });

  it('steers traffic from the device to the table, past its default route with suppress_prefixlength 0', async () => {
    await replaceRoute(host, { prefix: '0.0.0.0/0', devs: ['hlt1'], metric: 1, table: TABLE });
    await replaceRoute(host, { prefix: '10.1.0.0/16', devs: ['hlt1'], metric: 1, table: TABLE });
    await replaceRoute(host, { prefix: '0.0.0.0/0', devs: ['hlt0'], metric: 1 });
    const from = (address: string) => ip('-j', 'route', 'get', address, 'iif', 'hlt0', 'from', '198.51.100.9');
    await host.run('sysctl', ['-q', '-w', 'net.ipv4.ip_forward=1']);
    expect(await from('203.0.113.1')).toContain('"dev":"hlt0"');
    await ensureRule(host, { iif: 'hlt0', table: TABLE, priority: RULE_PRIORITY_FIRST, suppressPrefixLength: 0 });
    // Its default route is suppressed: to an address outside its prefixes, the main table decides.
    expect(await from('203.0.113.1')).toContain('"dev":"hlt0"');
    expect(await from('10.1.2.3')).toContain('"dev":"hlt1"');
    // Traffic the host makes itself is not concerned.
    expect(await routeGet(host, '10.1.2.3')).toMatchObject({ dev: 'hlt0' });
  });

  it('deletes a rule, with no error when it is gone', async () => {
    const rule = { iif: 'hlt0', table: TABLE, priority: RULE_PRIORITY_FIRST + 2 };
    await ensureRule(host, rule);
    await deleteRule(host, rule);
    await deleteRule(host, rule);
    expect(await readOwnRules(host)).toEqual([]);
  });

  it("finds and removes after a crash the rules of a device that is gone, and leaves others' alone", async () => {
    await lab.tun(ns, 'hlt9');
    await ensureRule(host, { iif: 'hlt9', table: TABLE, priority: RULE_PRIORITY_FIRST + 3 });
    await ip('tuntap', 'del', 'dev', 'hlt9', 'mode', 'tun');
    // Someone else's rules: in the range without the agent's protocol, and with it outside the range.
    const theirs = ['iif', 'hlt0', 'table', String(TABLE), 'priority', String(RULE_PRIORITY_FIRST + 4)];
    const outside = ['iif', 'hlt0', 'table', String(TABLE), 'priority', String(RULE_PRIORITY_FIRST - 1), 'protocol', '157'];
    await ip('rule', 'add', ...theirs);
    await ip('rule', 'add', ...outside);
    try {
      // The same rule as theirs but the agent's is another rule, the protocol tells them apart.
      await ensureRule(host, { iif: 'hlt0', table: TABLE, priority: RULE_PRIORITY_FIRST + 4 });
      expect(await readOwnRules(host)).toEqual([
        { iif: 'hlt9', table: TABLE, priority: RULE_PRIORITY_FIRST + 3 },
        { iif: 'hlt0', table: TABLE, priority: RULE_PRIORITY_FIRST + 4 },
      ]);
      await flushOwnRules(host);
      expect(await readOwnRules(host)).toEqual([]);
      const left = await ip('rule', 'show');
      expect(left).toContain(`${RULE_PRIORITY_FIRST + 4}:\tfrom all iif hlt0 lookup ${TABLE}`);
      expect(left).toContain(`${RULE_PRIORITY_FIRST - 1}:\tfrom all iif hlt0 lookup ${TABLE} proto 157`);
    } finally {
      await ip('rule', 'del', ...theirs);
      await ip('rule', 'del', ...outside);
    }
  });

  it('refuses a priority outside the agent range', async () => {
    await expect(ensureRule(host, { iif: 'hlt0', table: TABLE, priority: 32000 })).rejects.toThrow("rule priority 32000 is outside the agent's 20000-20999");
  });
});
