import { buildApp } from './app';
import { loadConfig } from './config';
import { connect } from './db/connect';
import { migrateToLatest } from './db/migrate';

const USAGE = `usage: hublink <command>
  start     run the console, API and device gateway (migrates first)
  migrate   bring the database schema up to date and exit`;

async function start() {
  const config = loadConfig();
  const app = await buildApp(config);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
}

async function migrate() {
  const config = loadConfig();
  const handle = connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(handle);
  await handle.close();
  console.log('database is up to date');
}

const commands: Record<string, () => Promise<void>> = { start, migrate };
const command = commands[process.argv[2] ?? 'start'];
if (!command) {
  console.error(USAGE);
  process.exit(2);
}
command().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
