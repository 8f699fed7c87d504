import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileNetwork } from './compile';
import { networkOf, type NetworkSketch } from './fixtures';

/*
 * Golden files: each golden/<name>.json (a network, members on default settings unless they say
 * otherwise) compiles to exactly golden/<name>.expected.json (every member's structured config) and
 * golden/<name>.ovpn (every member's OpenVPN files, one after another). After a deliberate change of
 * the output, rewrite them and read the diff:
 *   UPDATE_GOLDEN=1 npx vitest run --project server packages/server/src/compiler/golden.test.ts
 */

const DIR = path.join(import.meta.dirname, 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const names = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .sort();

function outputs(name: string) {
  const input = networkOf(JSON.parse(fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8')) as NetworkSketch);
  const compiled = compileNetwork(input);
  const json = `${JSON.stringify(compiled.members.map((m) => m.json), null, 2)}\n`;
  const ovpn = compiled.members.flatMap((m) => Object.entries(m.openvpn).map(([file, text]) => `### ${m.router_name}/${file}\n${text}`)).join('\n');
  return { json, ovpn };
}

describe('compiler golden files', () => {
  it('has the four representative networks', () => {
    expect(names).toEqual(['hub-main-backup', 'pop-first', 'prefixes-ge-le', 'twin-center']);
  });

  for (const name of names) {
    it(`compiles ${name} as recorded`, () => {
      const got = outputs(name);
      const jsonFile = path.join(DIR, `${name}.expected.json`);
      const ovpnFile = path.join(DIR, `${name}.ovpn`);
      if (UPDATE) {
        fs.writeFileSync(jsonFile, got.json);
        fs.writeFileSync(ovpnFile, got.ovpn);
      }
      expect(got.json).toBe(fs.readFileSync(jsonFile, 'utf8'));
      expect(got.ovpn).toBe(fs.readFileSync(ovpnFile, 'utf8'));
    });
  }
});
