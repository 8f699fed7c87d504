import { parseArgs, type ParseArgsConfig } from 'node:util';
import { userInfo } from 'node:os';
import { captured, openScope } from '../core/audit';
import { operatorEvents } from '../core/auditEntry';
import { ApiError } from '../core/errors';
import type { Ctx } from '../core/context';
import { OpsError, type OpsCommand } from './command';
import { formatResult } from './print';

export interface OpsIo {
  /** Opens the database and the backbone once a command's arguments are valid; close() lets the events it raised be delivered. */
  open(): Promise<{ ctx: Ctx; close(): Promise<void> }>;
  out(text: string): void;
  err(text: string): void;
}

/** Exit codes: 0 done, 1 refused (not found, wrong state, a rule of the service), 2 bad usage or input. */
export const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

/** Characters of an answer an audit entry keeps (audit_entry.msg). */
const MSG_MAX = 255;

/** Who runs the CLI: the system user (the audit trail's operator). */
function operatorName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'operator';
  }
}

const optionName = (key: string) => `--${key.replace(/_/g, '-')}`;

function commandUsage(c: OpsCommand): string {
  const args = (c.positionals ?? []).map((p) => (p.endsWith('?') ? `[${p.slice(0, -1)}]` : `<${p}>`)).join(' ');
  const lines = [`usage: hublink ops ${c.group} ${c.name}${args ? ` ${args}` : ''} [options] [--json]`, `  ${c.summary}`];
  for (const [key, o] of Object.entries(c.options ?? {})) {
    lines.push(`  ${(optionName(key) + (o.boolean ? '' : ' <value>') + (o.multiple ? ' …' : '')).padEnd(34)} ${o.help}`);
  }
  return lines.join('\n');
}

export function opsUsage(commands: OpsCommand[], group?: string): string {
  const shown = commands.filter((c) => !group || c.group === group);
  const width = Math.max(...shown.map((c) => `${c.group} ${c.name}`.length));
  return [
    `usage: hublink ops <group> <command> [arguments] [--json]   (npm run ops -- …)`,
    ...shown.map((c) => `  ${`${c.group} ${c.name}`.padEnd(width)}  ${c.summary}`),
    `'hublink ops <group> <command> --help' tells a command's arguments; 'hublink ops help all' tells every command's.`,
  ].join('\n');
}

/** Every command's usage, one after another (`hublink ops help all`, and docs/operations.md's reference). */
export const opsReference = (commands: OpsCommand[]) => commands.map(commandUsage).join('\n\n');

/** Runs `hublink ops …` with these arguments and answers the exit code. */
export async function runOps(argv: string[], commands: OpsCommand[], io: OpsIo): Promise<number> {
  const [group, name, ...rest] = argv;
  if (!group || group === 'help' || group === '--help') {
    io.out(group === 'help' && name === 'all' ? opsReference(commands) : opsUsage(commands));
    return group ? EXIT.ok : EXIT.usage;
  }
  if (!commands.some((c) => c.group === group)) {
    io.err(`unknown group '${group}'\n${opsUsage(commands)}`);
    return EXIT.usage;
  }
  const command = commands.find((c) => c.group === group && c.name === name);
  if (!command) {
    io.err(`${name ? `unknown command '${group} ${name}'` : `'${group}' needs a command`}\n${opsUsage(commands, group)}`);
    return EXIT.usage;
  }

  const options: NonNullable<ParseArgsConfig['options']> = { json: { type: 'boolean' }, help: { type: 'boolean' } };
  for (const [key, o] of Object.entries(command.options ?? {})) {
    options[optionName(key).slice(2)] = { type: o.boolean ? 'boolean' : 'string', ...(o.multiple ? { multiple: true } : {}) };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  } catch (e) {
    io.err(`${(e as Error).message}\n${commandUsage(command)}`);
    return EXIT.usage;
  }
  if (parsed.values.help) {
    io.out(commandUsage(command));
    return EXIT.ok;
  }
  const names = (command.positionals ?? []).map((p) => p.replace(/\?$/, ''));
  if (parsed.positionals.length > names.length) {
    io.err(`unexpected argument '${parsed.positionals[names.length]}'\n${commandUsage(command)}`);
    return EXIT.usage;
  }
  const raw: Record<string, unknown> = {};
  names.forEach((n, i) => (raw[n] = parsed.positionals[i]));
  for (const key of Object.keys(command.options ?? {})) raw[key] = parsed.values[optionName(key).slice(2)];
  const input = command.input.safeParse(raw);
  if (!input.success) {
    const issue = input.error.issues[0]!;
    const key = String(issue.path[0] ?? '');
    const where = names.includes(key) ? `<${key}>` : key ? optionName(key) : '';
    io.err(`${where ? `${where}: ` : ''}${issue.message}\n${commandUsage(command)}`);
    return EXIT.usage;
  }

  const session = await io.open();
  try {
    // The command runs in an audit scope: what it changes goes into each tenant's audit trail.
    const scope = openScope();
    const result = await captured(scope, () => command.run(session.ctx, input.data));
    const msg = 'done' in result ? result.done : `${command.group} ${command.name}`;
    const events = operatorEvents(scope, { path: `/ops/${command.group}/${command.name}`, msg: msg.slice(0, MSG_MAX), operator: operatorName() });
    if (events.length > 0) await session.ctx.events.emitAll(session.ctx.db, events);
    io.out(formatResult(result, parsed.values.json === true));
    return EXIT.ok;
  } catch (e) {
    if (e instanceof OpsError || e instanceof ApiError) {
      io.err(e.message);
      return EXIT.refused;
    }
    throw e;
  } finally {
    await session.close();
  }
}
