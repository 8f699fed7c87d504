import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { softwareTemplate } from '@hublink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, newAccount, type TestApp } from '../../test/helpers';

/** A built console of two files, as packages/web/dist holds them. */
function fakeConsole(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-console-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html lang="zh-CN"><head><meta charset="UTF-8" /><title>HubLink</title></head><body><div id="root"></div></body></html>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
  return dir;
}

const SAME_ON_EVERY_ANSWER = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

describe('security headers', () => {
  let t: TestApp;
  let proxied: TestApp;
  let webDist: string;
  let token: string;

  beforeAll(async () => {
    webDist = fakeConsole();
    t = await createTestApp('sqlite', { config: { webDist } });
    proxied = await createTestApp('sqlite', { config: { webDist, trustProxy: true } });
    token = (await newAccount(t)).token;
  });

  afterAll(async () => {
    await t?.close();
    await proxied?.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('every kind of answer carries nosniff, no framing and the referrer policy, and a policy that refuses framing, eval and inline script', async () => {
    const answers = {
      envelope: await t.app.inject({ method: 'GET', url: '/api/v1/verify/code' }),
      refusal: await t.app.inject({ method: 'POST', url: '/api/v1/login/authorization', payload: {} }),
      unknownApi: await t.app.inject({ method: 'GET', url: '/api/v1/nothing/here' }),
      download: await t.app.inject({ method: 'GET', url: `/api/v1${softwareTemplate.path}`, headers: { authorization: `Bearer ${token}` } }),
      asset: await t.app.inject({ method: 'GET', url: '/assets/index-abc.js' }),
      page: await t.app.inject({ method: 'GET', url: '/network/lists' }),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect({ name, headers: res.headers }).toMatchObject({ name, headers: SAME_ON_EVERY_ANSWER });
      const csp = String(res.headers['content-security-policy']);
      for (const directive of ["default-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "script-src-attr 'none'", "style-src-attr 'none'", "base-uri 'self'"]) {
        expect({ name, csp: csp.includes(directive) }).toEqual({ name, csp: true });
      }
      // Scripts: our origin only (no 'unsafe-inline', no 'unsafe-eval').
      expect(csp).not.toMatch(/unsafe-/);
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    expect(answers.download.headers['content-disposition']).toMatch(/^attachment/);
  });

  it('the console page carries its nonce, a new one each time, and is revalidated on every load', async () => {
    const nonces = new Set<string>();
    for (const url of ['/', '/index.html', '/dashboard', '/network/detail?network_number=x']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect({ url, status: res.statusCode, type: res.headers['content-type'] }).toEqual({ url, status: 200, type: 'text/html; charset=utf-8' });
      const nonce = /style-src 'self' [^;]*'nonce-([A-Za-z0-9+/=]+)'/.exec(String(res.headers['content-security-policy']))?.[1];
      expect(nonce).toBeTruthy();
      expect(res.body).toContain(`<head><meta property="csp-nonce" nonce="${nonce}"><meta charset="UTF-8" />`);
      expect(res.headers['cache-control']).toBe('no-cache');
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(4);
    // Hashed assets are still cached for good.
    expect((await t.app.inject({ method: 'GET', url: '/assets/index-abc.js' })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('HSTS only over HTTPS: behind a trusted proxy that says so, never on a plain request or an untrusted header', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    expect((await proxied.app.inject({ method: 'GET', url: '/api/v1/verify/code', headers: https })).headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
    expect((await proxied.app.inject({ method: 'GET', url: '/dashboard', headers: https })).headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
    expect((await proxied.app.inject({ method: 'GET', url: '/api/v1/verify/code' })).headers['strict-transport-security']).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/verify/code', headers: https })).headers['strict-transport-security']).toBeUndefined();
  });
});
