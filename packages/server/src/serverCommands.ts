/*
 * The server's commands of the CLI (start, migrate, jobs, ops, backup, restore): everything they need
 * is imported here, so `hublink agent` (main.ts) starts without loading the server.
 */
import cluster from 'node:cluster';
import { buildApp } from './app';
import { loadConfig } from './config';
import { stopWhenPrimaryGoes, superviseWorkers } from './core/cluster';
import { coreModule } from './core/housekeeping';
import { serveUntilSignal } from './core/lifecycle';
import { listenRefusal, preflight } from './core/startup';
import { ConfigError, StartupError } from './core/startupError';
import { connect } from './db/connect';
import { startDemo } from './demo';
import { MigrationError, migrateToLatest, migrationLines } from './db/migrate';
import { MODULES } from './modules';
import { runBackup } from './ops/backup';
import { OPS_COMMANDS } from './ops/commands';
import { runRestore } from './ops/restore';
import { runOps } from './ops/run';
import { openOpsSession } from './ops/session';

/** The configuration, or a refusal naming what is wrong with it (printed as one line, exit 78). */
function configuration() {
  try {
    return loadConfig();
  } catch (e) {
    throw e instanceof ConfigError ? e : new ConfigError((e as Error).message);
  }
}

async function start() {
  const config = configuration();
  // The workers of HUBLINK_WORKERS share what the primary has checked.
  if (cluster.isPrimary) await preflight(config);
  if (config.workers > 1 && cluster.isPrimary) return superviseWorkers(config, { prepare: migrate });
  stopWhenPrimaryGoes();
  const app = await buildApp(config);
  const drain = { delayMs: config.shutdownDelaySeconds * 1000, onSignal: () => app.readiness.drain() };
  await serveUntilSignal(app, { port: config.port, host: config.host, ...drain }).catch((e: unknown) => {
    throw listenRefusal(e, config.host, config.port) ?? e;
  });
  if (process.argv.includes('--demo') && config.workerIndex === 0) await startDemo(app);
}

async function migrate() {
  const config = configuration();
  const handle = connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(handle, migrationLines);
  await handle.close();
  if (process.argv[2] === 'migrate') console.log('database is up to date');
}

/** The jobs of every module (the same list the server runs) with the outcome of each one's latest run. */
async function jobs() {
  const config = configuration();
  const handle = connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(handle);
    for (const m of [coreModule, ...MODULES]) {
      for (const job of m.jobs ?? []) {
        const last = await handle.db.selectFrom('job_run').selectAll().where('job', '=', job.name).orderBy('started_at', 'desc').limit(1).executeTakeFirst();
        const when = last ? new Date(Number(last.started_at)).toISOString() : '-';
        const outcome = last ? `${last.outcome}${last.error ? ` (${last.error})` : ''} on ${last.instance}` : 'never run';
        console.log(`${job.name.padEnd(28)} ${(job.schedule ?? 'on demand').padEnd(14)} ${when.padEnd(25)} ${outcome}`);
      }
    }
  } finally {
    await handle.close();
  }
}

/** The operator's commands against this configuration's database (docs/operations.md). */
async function ops() {
  const config = configuration();
  process.exitCode = await runOps(process.argv.slice(3), OPS_COMMANDS, {
    open: () => openOpsSession(config),
    out: (text) => console.log(text),
    err: (text) => console.error(text),
  });
}

/** Backup and restore of the data dir (docs/operations.md, "Backup and restore"); exit 0 done, 1 refused or failed, 2 bad usage. */
async function backup() {
  const config = loadConfig();
  process.exitCode = await runBackup(process.argv.slice(3), { config, out: (text) => console.log(text), err: (text) => console.error(text) });
}

async function restore() {
  process.exitCode = await runRestore(process.argv.slice(3), { out: (text) => console.log(text), err: (text) => console.error(text) });
}

const commands: Record<string, () => Promise<void>> = { start, migrate, jobs, ops, backup, restore };

/** Runs one of the server's commands (main.ts loads this file only for them); false for an unknown command. */
export function runServerCommand(name: string): boolean {
  const command = commands[name];
  if (!command) return false;
  command().catch((e: unknown) => {
    // A refused start is the operator's to fix: one line, no stack. Anything else is ours: all of it.
    if (e instanceof StartupError) {
      console.error(`hublink: ${e.message}`);
      process.exit(e.exitCode);
    }
    // Already logged in full as it was rolled back (db/migrate.ts).
    if (e instanceof MigrationError) {
      console.error(`hublink: ${e.message}`);
      process.exit(1);
    }
    console.error(e);
    process.exit(1);
  });
  return true;
}
