import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The rule of DESIGN.md §3, enforced by lint (eslint.config.js, eslint/areaImports.js): a module
// imports only core, db, @hublink/contract and itself; its tests and fixtures also packages/server/test.

const repo = path.resolve(import.meta.dirname, '../../..');
const RULE = 'server-modules/imports';
let eslint: ESLint;

/** Whole trees are linted on a machine busy with other suites: with the boundary rule alone, and a minute or two to do it. */
const TREE_MS = 120_000;

beforeAll(() => {
  eslint = new ESLint({ cwd: repo, ruleFilter: ({ ruleId }) => ruleId === RULE });
});

/** The import boundary breaches ESLint reports for this source at this path (relative to the repository). */
async function breaches(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(repo, file) });
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => source.split('\n')[m.line - 1]!.trim());
}

const SERVICE = 'packages/server/src/modules/account/service.ts';

describe('a module importing another module', () => {
  it("fails lint on another module's internals, however the import is written", async () => {
    const source = [
      "import { verifyCode } from '../auth/service';",
      "import type { Plan } from '../network/quota';",
      "export { phoneHolder } from '../router/service';",
      "export * from '../auth/users';",
      "export const later = () => import('../ram/service');",
      "import { x } from '../../modules/router/service';",
    ].join('\n');
    expect(await breaches(SERVICE, source)).toEqual(source.split('\n'));
  });

  it('judges the resolved path, so a file in a sub-folder of a module is held to the same rule', async () => {
    const file = 'packages/server/src/modules/router/import/rows.ts';
    expect(await breaches(file, "import { a } from '../../account/service';")).toHaveLength(1);
    expect(await breaches(file, "import { b } from '../service';\nimport { c } from '../../../core/errors';")).toEqual([]);
  });

  it('fails lint on the rest of the server and on the other workspace packages', async () => {
    const source = ["import { loadConfig } from '../../config';", "import { buildApp } from '../../app';", "import '@hublink/web';", "import { newAccount } from '../../../test/helpers';"].join('\n');
    expect(await breaches(SERVICE, source)).toEqual(source.split('\n'));
  });

  it('passes core, db, the contract, the module itself and npm packages', async () => {
    const source = [
      "import { M } from '@hublink/contract';",
      "import { invalid } from '../../core/errors';",
      "import type { Db } from '../../db/connect';",
      "import { formatTime } from '../../core';",
      "import * as account from './service';",
      "import { sql } from 'kysely';",
      "import { randomBytes } from 'node:crypto';",
    ].join('\n');
    expect(await breaches(SERVICE, source)).toEqual([]);
  });
});

describe("a module's tests and fixtures", () => {
  it('may use the shared test helpers, and still no other module', async () => {
    for (const file of ['packages/server/src/modules/router/add.test.ts', 'packages/server/src/modules/router/fixtures.ts']) {
      expect(await breaches(file, "import { newAccount } from '../../../test/helpers';")).toEqual([]);
      expect(await breaches(file, "import { codeFor } from '../account/fixtures';")).toHaveLength(1);
    }
  });
});

describe('the modules as they are', () => {
  it('keep the rule', async () => {
    const results = await eslint.lintFiles(['packages/server/src/modules']);
    const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId === RULE).map((m) => `${path.relative(repo, r.filePath)}:${m.line} ${m.message}`));
    expect(results.length).toBeGreaterThan(50);
    expect(found).toEqual([]);
  }, TREE_MS);
});

describe('the network compiler', () => {
  const PKI = 'packages/server/src/compiler/pki.ts';

  it('imports core, db, the contract and itself, never a module or the rest of the server', async () => {
    const allowed = ["import { createSecretBox } from '../core/secretBox';", "import type { Db } from '../db/connect';", "import { M } from '@hublink/contract';", "import { needsRenewal } from './pki';", "import * as x509 from '@peculiar/x509';"].join('\n');
    expect(await breaches(PKI, allowed)).toEqual([]);
    const refused = ["import { rename } from '../modules/network/service';", "import { loadConfig } from '../config';", "import { newAccount } from '../../test/helpers';"].join('\n');
    expect(await breaches(PKI, refused)).toEqual(refused.split('\n'));
    expect(await breaches('packages/server/src/compiler/pkiStore.test.ts', "import { newAccount } from '../../test/helpers';")).toEqual([]);
  });

  it('keeps the rule as it is', async () => {
    const results = await eslint.lintFiles(['packages/server/src/compiler']);
    expect(results.length).toBeGreaterThan(0);
    expect(results.flatMap((r) => r.messages.filter((m) => m.ruleId === RULE))).toEqual([]);
  }, TREE_MS);
});

describe('the device gateway', () => {
  const FILE = 'packages/server/src/gateway/sessionRows.ts';

  it('imports core, db, the compiler, the contract and itself, never a module or the agent', async () => {
    const allowed = ["import type { Ctx } from '../core/context';", "import type { Db } from '../db/connect';", "import { issueCertificate } from '../compiler/certificates';", "import { M } from '@hublink/contract';", "import { x } from './liveWriter';"].join('\n');
    expect(await breaches(FILE, allowed)).toEqual([]);
    const refused = ["import { rename } from '../modules/network/service';", "import { loadConfig } from '../config';", "import { simulate } from '@hublink/agent';", "import { newAccount } from '../../test/helpers';"].join('\n');
    expect(await breaches(FILE, refused)).toEqual(refused.split('\n'));
  });

  it("lets its tests start the agent and use the modules' fixtures", async () => {
    const source = ["import { simulate } from '@hublink/agent';", "import { addMember } from '../modules/router/fixtures';", "import { newAccount } from '../../test/helpers';"].join('\n');
    expect(await breaches('packages/server/src/gateway/agent.test.ts', source)).toEqual([]);
  });

  it('keeps the rule as it is', async () => {
    const results = await eslint.lintFiles(['packages/server/src/gateway']);
    expect(results.length).toBeGreaterThan(20);
    expect(results.flatMap((r) => r.messages.filter((m) => m.ruleId === RULE).map((m) => `${path.relative(repo, r.filePath)}:${m.line} ${m.message}`))).toEqual([]);
  }, TREE_MS);
});

describe('core and domain, the floors under the areas', () => {
  it('core imports itself, db, config.ts and the contract, never domain or an area', async () => {
    const allowed = ["import { M } from '@hublink/contract';", "import type { Db } from '../db/connect';", "import type { Config } from '../config';", "import { ApiError } from './errors';"].join('\n');
    expect(await breaches('packages/server/src/core/http.ts', allowed)).toEqual([]);
    const refused = ["import { createMembers } from '../domain/members';", "import { list } from '../modules/router/service';", "import { recompileNetwork } from '../compiler/versions';", "import { buildApp } from '../app';"].join('\n');
    expect(await breaches('packages/server/src/core/http.ts', refused)).toEqual(refused.split('\n'));
  });

  it('domain imports core, db and itself, never an area', async () => {
    const allowed = ["import { chunks } from '../core/chunks';", "import type { Db } from '../db/connect';", "import { planOf } from './plan';"].join('\n');
    expect(await breaches('packages/server/src/domain/members.ts', allowed)).toEqual([]);
    const refused = ["import { list } from '../modules/router/service';", "import { gateway } from '../gateway';", "import { recompileNetwork } from '../compiler/versions';"].join('\n');
    expect(await breaches('packages/server/src/domain/members.ts', refused)).toEqual(refused.split('\n'));
  });

  it('the areas above reach domain', async () => {
    for (const file of ['packages/server/src/modules/router/service.ts', 'packages/server/src/compiler/versions.ts', 'packages/server/src/gateway/sessionRows.ts']) {
      expect(await breaches(file, "import { createMembers } from '../../domain/members';".replace('../../', file.includes('/modules/') ? '../../' : '../'))).toEqual([]);
    }
  });
});
