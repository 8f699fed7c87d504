import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { OWNERS } from './db/owners';

// Who writes which table, enforced by lint (eslint/tableWriters.js over db/owners.ts): a table is
// written by its owner and the writers owners.ts names with a reason, nowhere else. `npm run lint`
// (the first step of `npm test`) holds the whole server to it; these show the rule at work.

const repo = path.resolve(import.meta.dirname, '../../..');
const RULE = 'server-tables/writers';
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: repo, ruleFilter: ({ ruleId }) => ruleId === RULE });
});

/** The lines of `source` (at `file`, relative to packages/server/src) the rule refuses, with its messages. */
async function refused(file: string, source: string): Promise<{ line: string; message: string }[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(repo, 'packages/server/src', file) });
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => ({ line: source.split('\n')[m.line - 1]!.trim(), message: m.message }));
}

describe('a write into a table', () => {
  it("fails lint in another area, however the statement is written, and says whose the table is", async () => {
    const source = [
      "export const a = (db) => db.insertInto('member').values({}).execute();",
      "export const b = (db) => db.updateTable('member as m').set({ note: '' }).execute();",
      "export const c = (db) => db.deleteFrom('network_member').execute();",
      "export const d = (db) => sql`update member set note = '' where id = ${1}`.execute(db);",
      "export const e = (db) => sql`delete from \"network\" where id = ${1}`.execute(db);",
    ].join('\n');
    const found = await refused('modules/monitor/service.ts', source);
    expect(found.map((f) => f.line)).toEqual(source.split('\n'));
    expect(found[0]!.message).toContain('modules/monitor/service.ts writes member, which belongs to modules/router');
  });

  it('passes in the owner, in a named writer, and for reads', async () => {
    expect(await refused('modules/router/service.ts', "export const a = (db) => db.updateTable('member').set({ note: '' }).execute();")).toEqual([]);
    expect(await refused('gateway/sessionRows.ts', "export const a = (db) => db.updateTable('member').set({ online_status: 1 }).execute();")).toEqual([]);
    expect(await refused('modules/monitor/service.ts', "export const a = (db) => db.selectFrom('member').selectAll().execute();")).toEqual([]);
    // A named writer is that file or folder, not its neighbours.
    expect(await refused('gateway/applied.ts', "export const a = (db) => db.updateTable('member_config').set({ applied_version: 1 }).execute();")).toEqual([]);
    expect(await refused('gateway/sessionRows.ts', "export const a = (db) => db.updateTable('member_config').set({ applied_version: 1 }).execute();")).toHaveLength(1);
  });

  it('fails lint on a table owners.ts does not know and on a table named at run time', async () => {
    const found = await refused('modules/router/service.ts', ["export const a = (db) => db.insertInto('nobody').values({}).execute();", 'export const b = (db, t) => db.deleteFrom(t).execute();'].join('\n'));
    expect(found.map((f) => f.message)).toEqual([expect.stringContaining('nobody has no entry'), expect.stringContaining('names its table at run time')]);
  });

  it('leaves tests and fixtures alone (they set up what they need)', async () => {
    expect(await refused('modules/monitor/service.test.ts', "export const a = (db) => db.insertInto('member').values({}).execute();")).toEqual([]);
    expect(await refused('modules/monitor/fixtures.ts', "export const a = (db) => db.insertInto('member').values({}).execute();")).toEqual([]);
  });

  it("reads a raw statement's target, not an upsert's conflict clause", async () => {
    const upsert = 'export const a = (db) => sql`insert into member_link (a) values (${1}) on conflict (a) do update set a = excluded.a`.execute(db);';
    expect(await refused('gateway/liveWriter.ts', upsert)).toEqual([]);
    expect((await refused('modules/monitor/service.ts', upsert)).map((f) => f.message)).toEqual([expect.stringContaining('writes member_link, which belongs to gateway')]);
    expect(await refused('compiler/versions.ts', 'export const b = (db) => sql`with v(id) as (values (1)) update member_config set version = 2 from v`.execute(db);')).toEqual([]);
    expect(await refused('modules/monitor/service.ts', 'export const c = (db) => sql`select * from member where note = ${1}`.execute(db);')).toEqual([]);
    expect(await refused('modules/monitor/service.ts', 'export const d = (db) => sql`select id from monitor_state for update skip locked`.execute(db);')).toEqual([]);
  });
});

describe('owners.ts', () => {
  it("names owners and writers that exist, each writer with its reason", async () => {
    const { existsSync } = await import('node:fs');
    const src = path.join(repo, 'packages/server/src');
    const places = Object.values(OWNERS).flatMap((o) => [o.owner, ...Object.keys('writers' in o ? o.writers : {})]);
    expect(places.filter((p) => !existsSync(path.join(src, p)))).toEqual([]);
    for (const o of Object.values(OWNERS)) for (const why of Object.values('writers' in o ? (o.writers as Record<string, string>) : {})) expect(why.length).toBeGreaterThan(10);
  });
});
