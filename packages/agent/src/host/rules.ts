import { CommandError, type HostCommands } from './commands';
import { MAIN_TABLE, ROUTE_PROTOCOL } from './routes';

/**
 * The rule priorities reserved for the agent: its policy rules sit here (before the main table's 32766)
 * and carry the agent's protocol, so both together find them again after a crash.
 */
export const RULE_PRIORITY_FIRST = 20000;
export const RULE_PRIORITY_LAST = 20999;

const NAMED_TABLES: Record<string, number> = { main: MAIN_TABLE, local: 255, default: 253 };

/** A policy rule for traffic that came in on a device: look up `table` (ignoring its routes of `suppressPrefixLength` bits or fewer). */
export interface PolicyRule {
  iif: string;
  table: number;
  priority: number;
  suppressPrefixLength?: number;
}

function ruleArgs(rule: PolicyRule): string[] {
  const { iif, table, priority, suppressPrefixLength } = rule;
  if (priority < RULE_PRIORITY_FIRST || priority > RULE_PRIORITY_LAST) {
    throw new Error(`rule priority ${priority} is outside the agent's ${RULE_PRIORITY_FIRST}-${RULE_PRIORITY_LAST}`);
  }
  const suppress = suppressPrefixLength === undefined ? [] : ['suppress_prefixlength', String(suppressPrefixLength)];
  return ['priority', String(priority), 'iif', iif, 'table', String(table), ...suppress, 'protocol', String(ROUTE_PROTOCOL)];
}

/** The agent's rules: in its priority range and with its protocol (a rule's iif may name a device that is gone). */
export async function readOwnRules(host: HostCommands): Promise<PolicyRule[]> {
  const out = await host.run('ip', ['-j', '-d', '-4', 'rule', 'show']);
  const rules = JSON.parse(out || '[]') as { priority: number; iif?: string; table: string; suppress_prefixlen?: number; protocol?: string }[];
  return rules
    .filter((r) => r.priority >= RULE_PRIORITY_FIRST && r.priority <= RULE_PRIORITY_LAST && r.protocol === String(ROUTE_PROTOCOL) && r.iif)
    .map((r) => ({
      iif: r.iif!,
      table: NAMED_TABLES[r.table] ?? Number(r.table),
      priority: r.priority,
      ...(r.suppress_prefixlen === undefined ? {} : { suppressPrefixLength: r.suppress_prefixlen }),
    }));
}

/** Adds the rule unless it is there already. */
export async function ensureRule(host: HostCommands, rule: PolicyRule): Promise<void> {
  try {
    await host.run('ip', ['-4', 'rule', 'add', ...ruleArgs(rule)]);
  } catch (e) {
    if (!(e instanceof CommandError && /File exists/.test(e.stderr))) throw e;
  }
}

/** Deletes the rule; nothing when it is already gone. */
export async function deleteRule(host: HostCommands, rule: PolicyRule): Promise<void> {
  try {
    await host.run('ip', ['-4', 'rule', 'del', ...ruleArgs(rule)]);
  } catch (e) {
    if (!(e instanceof CommandError && /No such file or directory/.test(e.stderr))) throw e;
  }
}

/** Deletes every rule of the agent's (after a crash, or when it stops). */
export async function flushOwnRules(host: HostCommands): Promise<void> {
  for (const rule of await readOwnRules(host)) await deleteRule(host, rule);
}
