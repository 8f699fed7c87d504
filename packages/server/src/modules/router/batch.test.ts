import {
  batchAddRouters,
  batchDeleteRouters,
  batchDeleteRoutersFile,
  DELETE_COLUMNS,
  DELETE_EXAMPLE,
  EXPORT_COLUMNS,
  exportRouters,
  fmt,
  IMPORT_COLUMNS,
  IMPORT_EXAMPLE,
  IMPORT_SHEETS,
  LIMITS,
  M,
  MEMBER_FILES,
  routerPassword,
  softwareDeleteTemplate,
  softwareTemplate,
} from '@hublink/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { deflatedRepeat, SHEET_HEAD, SHEET_TAIL, workbookWithSheet } from '../../../test/craftedZip';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';
import { verifyPassword } from '../../core/passwords';
import { formatTime } from '../../core/time';
import { addMember, freshMobile, freshName, imported, memberCode, membersOf, readWorkbook, upload, workbook } from './fixtures';

type Main = Awaited<ReturnType<typeof newAccount>>;

/** Imports run as jobs: these apps run them (pg-boss looking often). */
const JOBS = { config: { runJobs: true }, backbone: { jobPollSeconds: 0.5 } };

const setPlan = (t: TestApp, tenantId: number, count: number) => t.db.updateTable('account').set({ network_router_count: count }).where('id', '=', tenantId).execute();
const rowOf = (t: TestApp, tenantId: number, name: string) =>
  t.db.selectFrom('member').selectAll().where('tenant_id', '=', tenantId).where('router_key', '=', name.toLowerCase()).executeTakeFirst();

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const importFile = async (rows: (string | number | null)[][], filename = '成员.xlsx') => ({ filename, body: await workbook(IMPORT_COLUMNS, rows) });
const deleteFile = async (rows: (string | number | null)[][], filename = 'delete.xlsx') => ({ filename, body: await workbook(DELETE_COLUMNS, rows) });

describeEachDatabase('GET /router/software_template and /router/software_delete_template', (t) => {
  it('downloads the import template: a real .xlsx, the header to fill in first, the example row on a second sheet', async () => {
    const a = await newAccount(t());
    const res = await t().call(softwareTemplate, { token: a.token });
    expect(res.file).toMatchObject({ filename: `${MEMBER_FILES.importTemplate}.xlsx`, contentType: XLSX });
    expect(await readWorkbook(res.file!.body)).toEqual([[...IMPORT_COLUMNS]]);
    expect(await readWorkbook(res.file!.body, IMPORT_SHEETS.example)).toEqual([[...IMPORT_COLUMNS], [...IMPORT_EXAMPLE]]);
  });

  it('downloads the delete template', async () => {
    const a = await newAccount(t());
    const res = await t().call(softwareDeleteTemplate, { token: a.token });
    expect(res.file).toMatchObject({ filename: `${MEMBER_FILES.deleteTemplate}.xlsx`, contentType: XLSX });
    expect(await readWorkbook(res.file!.body)).toEqual([[...DELETE_COLUMNS]]);
    expect(await readWorkbook(res.file!.body, IMPORT_SHEETS.example)).toEqual([[...DELETE_COLUMNS], [...DELETE_EXAMPLE]]);
  });

  it('a template uploaded as downloaded adds and deletes nothing: its example is not read', async () => {
    const a = await newAccount(t());
    await addMember(t(), a.token, { username: DELETE_EXAMPLE[0] });
    const tpl = (await t().call(softwareTemplate, { token: a.token })).file!.body;
    expect(await imported(t(), a.token, { filename: 'template.xlsx', body: tpl })).toMatchObject({ code: 422, msg: M.fileEmpty });
    const del = (await t().call(softwareDeleteTemplate, { token: a.token })).file!.body;
    expect(await upload(t(), batchDeleteRoutersFile.path, a.token, { filename: 'delete.xlsx', body: del })).toMatchObject({ code: 422, msg: M.fileEmpty });
    expect(await membersOf(t(), a.account.id)).toHaveLength(1);
  });
});

describeEachDatabase('POST /router/batch: the rows', (t) => {
  let a: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    await setPlan(t(), a.account.id, 100);
  });

  it('adds the valid rows as software members (source import), phones without a code, area code 86 by default', async () => {
    const [n1, n2, n3] = [freshName('imp'), freshName('imp'), freshName('imp')];
    const [p1, p2] = [freshMobile(), freshMobile()];
    const file = await importFile([
      [n1, 'abc12345', '', p1, '研发部'],
      // Numbers as Excel keeps them: password, area code and phone typed as numbers.
      [n2, 123456, 86, Number(p2), null],
      [n3, 'Secret99', null, null, 'Ops team_1.'],
    ]);
    const res = await imported(t(), a.token, file);
    expect(res).toMatchObject({ code: 200, msg: M.importStarted });
    expect(res.data).toEqual({
      success: 3,
      fail: 0,
      rows: [
        { row: 2, router_name: n1, ok: true, msg: M.importAdded },
        { row: 3, router_name: n2, ok: true, msg: M.importAdded },
        { row: 4, router_name: n3, ok: true, msg: M.importAdded },
      ],
    });
    const r1 = (await rowOf(t(), a.account.id, n1))!;
    expect(r1).toMatchObject({ router_type: 2, source: 'import', phone: `+86 ${p1}`, area_number: '86', note: '研发部', status: 1 });
    expect(await verifyPassword('abc12345', r1.secret_hash)).toBe(true);
    const r2 = (await rowOf(t(), a.account.id, n2))!;
    expect(r2).toMatchObject({ phone: `+86 ${p2}`, note: '' });
    expect(await verifyPassword('123456', r2.secret_hash)).toBe(true);
    expect(await rowOf(t(), a.account.id, n3)).toMatchObject({ phone: null, area_number: null, note: 'Ops team_1.' });
  });

  it('refuses each bad row with its reason and adds the others', async () => {
    const existing = await addMember(t(), a.token);
    const boundMobile = freshMobile();
    await addMember(t(), a.token, { phone: boundMobile, code: await memberCode(t(), a.token, `+86 ${boundMobile}`, 'app_bind_phone') });
    const good = freshName('ok');
    const twice = freshName('tw');
    const samePhone = freshMobile();
    const rows: [(string | number | null)[], string][] = [
      // Spec 3 §5: the account is 3-18 letters or digits.
      [['a b', 'pass1234', '', '', ''], M.importAccountRule],
      [['张三丰', 'pass1234', '', '', ''], M.importAccountRule],
      [['a'.repeat(19), 'pass1234', '', '', ''], M.importAccountRule],
      [['ab', 'pass1234', '', '', ''], M.importAccountRule],
      [[freshName('w.u_'), 'pass1234', '', '', ''], M.importAccountRule],
      [['', 'pass1234', '', '', '备注'], M.memberAccountRequired],
      [[freshName('pw'), '12345', '', '', ''], M.importPasswordRule],
      [[freshName('pw'), 'pass-1234', '', '', ''], M.importPasswordRule],
      [[freshName('nt'), 'pass1234', '', '', '备'.repeat(21)], M.importNoteRule],
      [[freshName('nt'), 'pass1234', '', '', '备注<script>'], M.importNoteRule],
      [[freshName('ph'), 'pass1234', '', '12345', ''], M.importPhoneRule],
      [[freshName('ph'), 'pass1234', '86', '23800000000', ''], M.importPhoneRule],
      [[freshName('ph'), 'pass1234', 'abc', '13800000000', ''], M.importPhoneRule],
      [[freshName('ph'), 'pass1234', '', boundMobile, ''], M.importPhoneRepeated],
      [[freshName('ph'), 'pass1234', '', samePhone, ''], M.importAdded],
      [[freshName('ph'), 'pass1234', '86', samePhone, ''], M.importPhoneRepeated],
      [[existing.toUpperCase(), 'pass1234', '', '', ''], M.memberNameTaken],
      [[twice, 'pass1234', '', '', ''], M.importAdded],
      [[twice.toUpperCase(), 'pass1234', '', '', ''], M.importAccountRepeated],
      [[good, 'pass1234', '', '', ''], M.importAdded],
      [['abc', 'pass1234', '', '', ''], M.importAdded],
    ];
    const res = await imported(t(), a.token, await importFile(rows.map((r) => r[0])));
    expect(res.code).toBe(200);
    expect(res.data!.rows.map((r) => [r.row, r.msg])).toEqual(rows.map((r, i) => [i + 2, r[1]]));
    expect(res.data!.rows.map((r) => r.ok)).toEqual(rows.map((r) => r[1] === M.importAdded));
    expect(res.data).toMatchObject({ success: 4, fail: rows.length - 4 });
    expect(await rowOf(t(), a.account.id, good)).toBeDefined();
    expect(await rowOf(t(), a.account.id, '张三丰')).toBeUndefined();
  });

  it('takes the first file of a request that carries two', async () => {
    const [first, second] = [freshName('one'), freshName('two')];
    const res = await imported(t(), a.token, await importFile([[first, 'pass1234']]), { more: [await importFile([[second, 'pass1234']])] });
    expect(res).toMatchObject({ code: 200, data: { success: 1, rows: [{ router_name: first }] } });
    expect(await rowOf(t(), a.account.id, second)).toBeUndefined();
  });

  it('skips blank rows, keeping the spreadsheet row numbers', async () => {
    const n = freshName('gap');
    const res = await imported(t(), a.token, await importFile([[null, null, null, null, null], ['', '', '', '', ''], [n, 'pass1234', '', '', '']]));
    expect(res.data!.rows).toEqual([{ row: 4, router_name: n, ok: true, msg: M.importAdded }]);
  });
}, JOBS);

describeEachDatabase('POST /router/batch: the plan', (t) => {
  it('adds rows up to the plan and refuses the ones beyond it', async () => {
    const a = await newAccount(t());
    await setPlan(t(), a.account.id, 3);
    await addMember(t(), a.token, { router_type: 1 });
    const names = [freshName('q'), freshName('q'), freshName('q'), freshName('q')];
    const res = await imported(t(), a.token, await importFile([[names[0]!, 'pass1234'], ['x-1', 'pass1234'], ...names.slice(1).map((n) => [n, 'pass1234'])]));
    const full = fmt(M.memberQuotaFull, { n: 3 });
    expect(res.data!.rows.map((r) => r.msg)).toEqual([M.importAdded, M.importAccountRule, M.importAdded, full, full]);
    expect(res.data).toMatchObject({ success: 2, fail: 3 });
    expect(await membersOf(t(), a.account.id)).toHaveLength(3);
    // Full: every valid row is refused; after the plan is lowered too.
    await setPlan(t(), a.account.id, 2);
    const again = await imported(t(), a.token, await importFile([[freshName('q'), 'pass1234']]));
    expect(again.data).toMatchObject({ success: 0, fail: 1, rows: [{ ok: false, msg: fmt(M.memberQuotaFull, { n: 2 }) }] });
    expect(await membersOf(t(), a.account.id)).toHaveLength(3);
  });
}, JOBS);

describeEachDatabase('POST /router/batch and /router/batch_delete_file: refusals of the whole file', (t) => {
  let a: Main;
  let valid: Buffer;

  beforeAll(async () => {
    a = await newAccount(t());
    valid = await workbook(IMPORT_COLUMNS, [[freshName('f'), 'pass1234', '', '', '']]);
  });

  /** Each refusal changes nothing. */
  async function refused(path: string, file: { filename: string; body: Buffer } | null, msg: string) {
    const before = await membersOf(t(), a.account.id);
    expect(await upload(t(), path, a.token, file)).toEqual({ code: 422, msg });
    expect(await membersOf(t(), a.account.id)).toEqual(before);
  }

  for (const path of [batchAddRouters.path, batchDeleteRoutersFile.path]) {
    describe(path, () => {
      it('refuses a request without a file, also one that is not multipart', async () => {
        await refused(path, null, M.fileRequired);
        const res = await t().app.inject({ method: 'POST', url: `/api/v1${path}`, payload: { file: 'x' }, headers: { authorization: `Bearer ${a.token}` } });
        expect(res.json()).toEqual({ code: 422, msg: M.fileRequired });
      });

      it('refuses a file not named .xlsx, and a text file renamed to .xlsx', async () => {
        await refused(path, { filename: 'members.xls', body: valid }, M.fileFormatWrong);
        await refused(path, { filename: 'members.csv', body: valid }, M.fileFormatWrong);
        await refused(path, { filename: 'members.xlsx', body: Buffer.from('账号,密码\nuser01,pass1234\n') }, M.fileFormatWrong);
      });

      it('refuses a file over 2 MB', async () => {
        const big = Buffer.concat([valid, Buffer.alloc(LIMITS.uploadMaxBytes + 1 - valid.length, 0x20)]);
        await refused(path, { filename: 'big.xlsx', body: big }, M.fileTooLarge);
        // Beyond the request body limit too: still the same message, never a failure.
        await refused(path, { filename: 'huge.xlsx', body: Buffer.concat([valid, Buffer.alloc(5 * 1024 * 1024, 0x20)]) }, M.fileTooLarge);
      });

      it('refuses a zip that is not a workbook', async () => {
        await refused(path, { filename: 'broken.xlsx', body: Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(200, 1)]) }, M.fileUnreadable);
      });

      it('refuses a small file that inflates far past what it declares', async () => {
        const bomb = workbookWithSheet(deflatedRepeat(SHEET_HEAD, ' '.repeat(1 << 20), 400, SHEET_TAIL), 1024);
        await refused(path, { filename: 'bomb.xlsx', body: bomb }, M.fileUnreadable);
      });

      it('refuses a multipart body the parser cannot read: cut short, a broken part header, no or the wrong boundary', async () => {
        const part = `Content-Disposition: form-data; name="file"; filename="a.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`;
        const bodies: [string, string][] = [
          ['multipart/form-data; boundary=XyZ', `--XyZ\r\n${part}PK\x03\x04abc`],
          ['multipart/form-data; boundary=XyZ', `--XyZ\r\nContent-Disposition: form-data; name="file"; filen`],
          ['multipart/form-data; boundary=XyZ', `--XyZ\r\nContent-Disposition\r\n\r\nabc\r\n--XyZ--\r\n`],
          ['multipart/form-data', `--XyZ\r\n${part}PK\x03\x04abc\r\n--XyZ--\r\n`],
          ['multipart/form-data; boundary=other', `--XyZ\r\n${part}PK\x03\x04abc\r\n--XyZ--\r\n`],
        ];
        for (const [type, payload] of bodies) {
          const before = await membersOf(t(), a.account.id);
          const res = await t().app.inject({ method: 'POST', url: `/api/v1${path}`, payload, headers: { authorization: `Bearer ${a.token}`, 'content-type': type } });
          expect({ type, payload, status: res.statusCode, answer: res.json() }).toMatchObject({ type, payload, status: 200, answer: { code: 422 } });
          expect([M.uploadBroken, M.fileRequired]).toContain(res.json().msg);
          expect(await membersOf(t(), a.account.id)).toEqual(before);
        }
      });

      it("reads one upload of a tenant at a time: another one meanwhile is refused, other tenants' are not", async () => {
        const file = { filename: 'a.xlsx', body: path === batchAddRouters.path ? valid : await workbook(DELETE_COLUMNS, [['nosuchmember']]) };
        const turn = `upload:${a.account.id}`;
        await t().ctx.store.incr(turn, 60);
        try {
          const before = await membersOf(t(), a.account.id);
          expect(await upload(t(), path, a.token, file)).toEqual({ code: 429, msg: M.uploadBusy });
          expect(await membersOf(t(), a.account.id)).toEqual(before);
          const other = await newAccount(t());
          expect((await upload(t(), path, other.token, file)).code).toBe(200);
        } finally {
          await t().ctx.store.del(turn);
        }
        expect((await upload(t(), path, a.token, file)).code).toBe(200);
      });

      it('refuses a wrong header naming the columns missing, not understood or repeated, and a file without rows', async () => {
        const columns = path === batchAddRouters.path ? IMPORT_COLUMNS : DELETE_COLUMNS;
        const header = (detail: string) => fmt(M.fileHeaderDetail, { detail });
        await refused(
          path,
          { filename: 'h.xlsx', body: await workbook(['名称', ...columns.slice(1)], [['a', 'b']]) },
          header(`${fmt(M.fileHeaderMissing, { cols: '“账号”' })}；${fmt(M.fileHeaderUnknown, { cols: '“名称”' })}`),
        );
        await refused(path, { filename: 'h.xlsx', body: await workbook([...columns, '其他', '部门'], [['a', 'b']]) }, header(fmt(M.fileHeaderUnknown, { cols: '“其他”、“部门”' })));
        await refused(path, { filename: 'h.xlsx', body: await workbook([...columns, '账号'], [['a', 'b']]) }, header(fmt(M.fileHeaderRepeated, { cols: '“账号”' })));
        if (path === batchAddRouters.path) {
          await refused(path, { filename: 'h.xlsx', body: await workbook(['账号', '备注'], [['a', 'b']]) }, header(fmt(M.fileHeaderMissing, { cols: '“密码”、“区号”、“手机号码”' })));
        }
        // No header in the first row.
        const noHeader = await workbook([], [[...columns], ['a', 'b']]);
        await refused(path, { filename: 'h.xlsx', body: noHeader }, header(M.fileHeaderNotFirst));
        await refused(path, { filename: 'e.xlsx', body: await workbook(columns, []) }, M.fileEmpty);
      });

      const maxRows = path === batchAddRouters.path ? LIMITS.importRowsMax : LIMITS.batchDeleteMax;
      it(`refuses more than ${maxRows} rows`, async () => {
        const rows = Array.from({ length: maxRows + 1 }, (_, i) => [`user${i}`, 'pass1234']);
        const columns = path === batchAddRouters.path ? IMPORT_COLUMNS : DELETE_COLUMNS;
        await refused(path, { filename: 'many.xlsx', body: await workbook(columns, rows) }, fmt(M.fileTooManyRows, { n: maxRows }));
      });
    });
  }
});

describeEachDatabase('POST /router/batch_delete and /router/batch_delete_file', (t) => {
  let a: Main;
  let b: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    b = await newAccount(t());
    await setPlan(t(), a.account.id, 100);
  });

  it('list mode: deletes the software members named, each name its own result', async () => {
    const [s1, s2] = [await addMember(t(), a.token), await addMember(t(), a.token)];
    const hw = await addMember(t(), a.token, { router_type: 1 });
    const theirs = await addMember(t(), b.token);
    const res = await t().call(batchDeleteRouters, { token: a.token, body: { router_name: [s1.toUpperCase(), hw, 'nosuchname', s2, s1, theirs] } });
    expect(res).toMatchObject({ code: 200, msg: M.batchDone });
    expect(res.data).toEqual({
      success: 2,
      fail: 4,
      rows: [
        { row: 0, router_name: s1.toUpperCase(), ok: true, msg: M.importRemoved },
        { row: 0, router_name: hw, ok: false, msg: M.memberSoftwareOnly },
        { row: 0, router_name: 'nosuchname', ok: false, msg: M.memberNotFound },
        { row: 0, router_name: s2, ok: true, msg: M.importRemoved },
        { row: 0, router_name: s1, ok: false, msg: M.importAccountRepeated },
        { row: 0, router_name: theirs, ok: false, msg: M.memberNotFound },
      ],
    });
    expect(await rowOf(t(), a.account.id, s1)).toBeUndefined();
    expect(await rowOf(t(), a.account.id, s2)).toBeUndefined();
    expect(await rowOf(t(), a.account.id, hw)).toBeDefined();
    expect(await rowOf(t(), b.account.id, theirs)).toBeDefined();
  });

  it('list mode needs at least one name', async () => {
    expect(await t().call(batchDeleteRouters, { token: a.token, body: { router_name: [] } })).toMatchObject({ code: 422, msg: M.selectSoftwareMember });
    expect(await t().call(batchDeleteRouters, { token: a.token, body: {} })).toMatchObject({ code: 422, msg: M.selectSoftwareMember });
  });

  it('file mode: the names of the delete template, by spreadsheet row', async () => {
    const s1 = await addMember(t(), a.token);
    const hw = await addMember(t(), a.token, { router_type: 1 });
    const res = await upload(t(), batchDeleteRoutersFile.path, a.token, await deleteFile([[s1], [null], [hw], ['ghost1']]));
    expect(res.data).toEqual({
      success: 1,
      fail: 2,
      rows: [
        { row: 2, router_name: s1, ok: true, msg: M.importRemoved },
        { row: 4, router_name: hw, ok: false, msg: M.memberSoftwareOnly },
        { row: 5, router_name: 'ghost1', ok: false, msg: M.memberNotFound },
      ],
    });
    expect(await rowOf(t(), a.account.id, s1)).toBeUndefined();
  });
});

describeEachDatabase('GET /router/export', (t) => {
  it('exports the members of a tab matching the search as .xlsx, newest first', async () => {
    const a = await newAccount(t());
    const mobile = freshMobile();
    const s1 = await addMember(t(), a.token, { note: '财务', phone: mobile, code: await memberCode(t(), a.token, `+86 ${mobile}`, 'app_bind_phone') });
    const s2 = await addMember(t(), a.token, { note: '财务二' });
    await addMember(t(), a.token, { note: '研发' });
    await addMember(t(), a.token, { router_type: 1, note: '财务' });
    await t().db.updateTable('member').set({ status: 0, online_status: 1, os: 'windows', version: '2.1.0' }).where('router_key', '=', s2.toLowerCase()).execute();

    const res = await t().call(exportRouters, { token: a.token, query: { type: 2, search: '财务' } });
    const day = formatTime(Date.now(), t().ctx.config.timezone).slice(0, 10).replaceAll('-', '');
    expect(res.file).toMatchObject({ filename: `${MEMBER_FILES.export}-${day}.xlsx`, contentType: XLSX });
    // The import's sheet and columns (密码 empty), then the export's own.
    const rows = await readWorkbook(res.file!.body, IMPORT_SHEETS.data);
    const created = async (n: string) => formatTime(Number((await rowOf(t(), a.account.id, n))!.create_time), t().ctx.config.timezone);
    expect(EXPORT_COLUMNS.slice(0, IMPORT_COLUMNS.length)).toEqual(IMPORT_COLUMNS);
    expect(rows).toEqual([
      [...EXPORT_COLUMNS],
      [s2, '', '', '', '财务二', M.memberStatusOff, M.memberOnline, 'windows', '2.1.0', await created(s2)],
      [s1, '', '86', mobile, '财务', M.memberStatusNormal, M.memberOffline, '', '', await created(s1)],
    ]);
    // The hardware tab.
    const hw = await t().call(exportRouters, { token: a.token, query: { type: 1 } });
    expect(await readWorkbook(hw.file!.body)).toHaveLength(2);
  });

  it('an exported list imports back as it is: names, phones and notes; no password until one is set', async () => {
    const a = await newAccount(t());
    const mobile = freshMobile();
    const withPhone = await addMember(t(), a.token, { note: '研发部', phone: mobile, code: await memberCode(t(), a.token, `+86 ${mobile}`, 'app_bind_phone') });
    const plain = await addMember(t(), a.token, { note: 'ops' });
    const dotted = await addMember(t(), a.token, { username: freshName('wang.wu_') });
    const file = (await t().call(exportRouters, { token: a.token, query: { type: 2 } })).file!;
    await t().db.deleteFrom('member').where('tenant_id', '=', a.account.id).execute();

    const res = await imported(t(), a.token, { filename: file.filename, body: file.body });
    expect(res).toMatchObject({ code: 200 });
    expect(res.data).toEqual({
      success: 2,
      fail: 1,
      rows: [
        { row: 2, router_name: dotted, ok: false, msg: M.importAccountRule },
        { row: 3, router_name: plain, ok: true, msg: M.importAddedNoPassword },
        { row: 4, router_name: withPhone, ok: true, msg: M.importAddedNoPassword },
      ],
    });
    const back = (await rowOf(t(), a.account.id, withPhone))!;
    expect(back).toMatchObject({ router_type: 2, source: 'import', phone: `+86 ${mobile}`, area_number: '86', note: '研发部' });
    expect(await rowOf(t(), a.account.id, plain)).toMatchObject({ note: 'ops', phone: null });
    // No password opens it, not even an empty one, until the admin sets one.
    for (const guess of ['', '!import', 'pass1234']) expect(await verifyPassword(guess, back.secret_hash)).toBe(false);
    expect(await t().call(routerPassword, { token: a.token, body: { router_name: withPhone, password: 'newpass99' } })).toMatchObject({ code: 200 });
    expect(await verifyPassword('newpass99', (await rowOf(t(), a.account.id, withPhone))!.secret_hash)).toBe(true);

    // A password typed into the exported file follows the template's rule.
    const edited = await readWorkbook(file.body, IMPORT_SHEETS.data);
    await t().db.deleteFrom('member').where('tenant_id', '=', a.account.id).execute();
    const again = await imported(t(), a.token, { filename: 'edited.xlsx', body: await workbook(edited[0]!, [[plain, 'abc123456', ...edited[2]!.slice(2)], [withPhone, '12', ...edited[3]!.slice(2)]]) });
    expect(again.data!.rows).toEqual([
      { row: 2, router_name: plain, ok: true, msg: M.importAdded },
      { row: 3, router_name: withPhone, ok: false, msg: M.importPasswordRule },
    ]);
    expect(await verifyPassword('abc123456', (await rowOf(t(), a.account.id, plain))!.secret_hash)).toBe(true);

    // And the same file names the members a bulk delete removes.
    const del = await upload(t(), batchDeleteRoutersFile.path, a.token, { filename: file.filename, body: file.body });
    expect(del.data).toMatchObject({ success: 1, fail: 2 });
    expect(await membersOf(t(), a.account.id)).toHaveLength(0);
  });

  it('answers the envelope with 数据为空 when nothing matches', async () => {
    const a = await newAccount(t());
    expect(await t().call(exportRouters, { token: a.token, query: { type: 2 } })).toEqual({ code: 422, msg: M.exportEmpty, status: 200 });
    await addMember(t(), a.token);
    expect(await t().call(exportRouters, { token: a.token, query: { type: 2, search: 'nothing-like-this' } })).toMatchObject({ code: 422, msg: M.exportEmpty });
  });
}, JOBS);
