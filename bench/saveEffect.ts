/**
 * What keeping a save's effect costs (issue 36): a network settings save (the DNS dialog's) on networks
 * of several sizes, made through its service alone and through the route's path, which takes the
 * network compiled before and after inside the save's transaction and compares the two after it
 * commits (core/preview.ts saveWithEffect). Both write the same version; the difference is the effect.
 * A dialog previews a change before its save, and the comparison is remembered by the two networks'
 * fingerprints: the third arm saves right after the same change's preview (untimed). The network: two
 * centers in main-backup routing and points with a /24 LAN each, rows put in directly; each run saves
 * a DNS list not saved before. Median of RUNS runs after one warm-up, on SQLite in a temporary directory;
 * each run's recompile (the save's event) is timed apart, after the save has answered.
 *
 *   npx tsx bench/saveEffect.ts            (BENCH_SIZES=100,300,1000 BENCH_RUNS=7)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../packages/server/src/app';
import { loadConfig } from '../packages/server/src/config';
import type { Actor } from '../packages/server/src/core/actor';
import { MemoryStore } from '../packages/server/src/core/store';
import { connect } from '../packages/server/src/db/connect';
import { migrateToLatest } from '../packages/server/src/db/migrate';
import { setDns } from '@hublink/contract';
import { saveKeepingEffect } from '../packages/server/src/modules/network/changes';
import { previewChange } from '../packages/server/src/modules/network/preview';
import * as settings from '../packages/server/src/modules/network/settings';
import { benchTenant } from './seed';

const SIZES = (process.env.BENCH_SIZES ?? '100,300,1000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-bench-save-'));
const handle = connect({ databaseUrl: '', dataDir });
await migrateToLatest(handle);
const config = { ...loadConfig({ HUBLINK_DATA_DIR: dataDir }), runJobs: false, prettyLogs: false, handbookDir: '' };
const app = await buildApp(config, { db: handle, store: new MemoryStore(), logger: false });
await app.ready();
const { ctx } = app;
const db = handle.db;

/** A network of `size` members put in directly: two centers in main-backup routing, points with a LAN each. */
async function network(size: number): Promise<{ tenantId: number; number: string }> {
  const tenantId = await benchTenant(db, { username: `save${size}`, sign: `sv${size}`, domain: `save${size}`, members: size });
  const now = Date.now();
  const number = `SAVE${size}`;
  const net = await db
    .insertInto('network')
    .values({ tenant_id: tenantId, network_number: number, network_name: `bench ${size}`, routing_type: 2, create_time: now, update_time: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const names = Array.from({ length: size }, (_, i) => (i < 2 ? `center${i + 1}` : `point${i}`));
  for (let i = 0; i < size; i += 500) {
    const part = names.slice(i, i + 500);
    const members = await db
      .insertInto('member')
      .values(part.map((n) => ({ tenant_id: tenantId, router_name: `${n}-${size}`, router_key: `${n}-${size}`, router_type: 1, note: '', secret_hash: 'x', create_time: now, update_time: now })))
      .returning('id')
      .execute();
    await db
      .insertInto('network_member')
      .values(
        members.map((m, j) => ({
          tenant_id: tenantId,
          network_id: net.id,
          member_id: m.id,
          member_type: i + j < 2 ? 'center' : 'point',
          routing: i + j === 1 ? 2 : 1,
          create_time: now,
        })),
      )
      .execute();
  }
  await db
    .insertInto('network_prefix')
    .values(names.slice(2).map((n, i) => ({ tenant_id: tenantId, network_id: net.id, ip: `10.${Math.floor(i / 256)}.${i % 256}.0`, mask: 24, name: `${n}-${size}`, permission: 'permit', position: i, ge: null, le: null })))
    .execute();
  return { tenantId, number };
}

/** Each run's recompile (the save's event) is let finish before the next run starts, outside the time. */
interface Timed {
  save: number;
  recompile: number;
}

/** Median of RUNS runs after a warm-up: the save's answer, then the recompile its event starts (let finish outside the save's time). */
async function median(body: (i: number) => Promise<unknown>, prepare: (i: number) => Promise<unknown> = async () => {}): Promise<Timed> {
  const runs: Timed[] = [];
  for (let i = 0; i <= RUNS; i++) {
    await prepare(i);
    const t0 = process.hrtime.bigint();
    await body(i);
    const t1 = process.hrtime.bigint();
    await ctx.events.settle();
    if (i > 0) runs.push({ save: Number(t1 - t0) / 1e6, recompile: Number(process.hrtime.bigint() - t1) / 1e6 });
  }
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { save: mid(runs.map((r) => r.save)), recompile: mid(runs.map((r) => r.recompile)) };
}

const show = (t: Timed) => `${t.save.toFixed(0)} ms (then its recompile ${t.recompile.toFixed(0)} ms)`;
console.log(`save effect bench: node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${RUNS} runs each`);
for (const size of SIZES) {
  const { tenantId, number } = await network(size);
  const actor: Actor = { tenantId, ramId: null, role: null, sessionId: 'bench' };
  // Every save a DNS list never saved before, so no comparison is remembered from an earlier run.
  let n = 0;
  const dns = (i: number) => [`192.0.2.${(n + i) % 250}`];
  const arm = async (body: (i: number) => Promise<unknown>, prepare?: (i: number) => Promise<unknown>) => {
    const t = await median(body, prepare);
    n += RUNS + 1;
    return t;
  };
  const alone = await arm((i) => settings.setDns(ctx, actor, number, dns(i)));
  const kept = await arm((i) => saveKeepingEffect(ctx, actor, () => settings.setDns(ctx, actor, number, dns(i))));
  const previewed = await arm(
    (i) => saveKeepingEffect(ctx, actor, () => settings.setDns(ctx, actor, number, dns(i))),
    (i) => previewChange(ctx, actor, number, setDns.path, { dns: dns(i) }, ''),
  );
  console.log(`${size} members: the save alone ${show(alone)}; keeping its effect ${show(kept)}; the same after its preview ${show(previewed)}`);
}
await app.close();
await handle.close();
fs.rmSync(dataDir, { recursive: true, force: true });
