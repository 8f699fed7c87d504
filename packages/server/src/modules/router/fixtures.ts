import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { addRouter, batchAddRouters, batchStatus, CODE, IMPORT_STATE, type BatchResult, type Envelope, type ImportStatus } from '@hublink/contract';
import { codeFor } from '../../../test/codes';
import { checkAnswer, type TestApp } from '../../../test/helpers';
import { until } from '../../../test/until';

// Shared by the member module's tests: members through the real call, codes, uploads, workbooks.

let seq = 0;
const stamp = () => `${String(Date.now() % 10_000).padStart(4, '0')}${String(++seq).padStart(4, '0')}`;
/** A member name no test has used (letters and digits, within 18). */
export const freshName = (prefix = 'm') => `${prefix}${stamp()}`;
/** A mainland mobile number without its dial code. */
export const freshMobile = () => `137${stamp()}`;

/** Adds a member through POST /router/add and fails the test when refused. */
export async function addMember(
  t: TestApp,
  token: string,
  over: Partial<{ router_type: number; username: string; password: string; note: string; area_code: string; phone: string; code: string; type: number }> = {},
) {
  const body = { router_type: 2, username: freshName(), password: 'pass1234', note: '', ...over };
  const res = await t.call(addRouter, { token, body });
  if (res.code !== 200) throw new Error(`add ${body.username}: ${res.msg}`);
  return body.username;
}

/** A code for a member's phone ('+86 137…') sent through /verify/send_code. */
export const memberCode = (t: TestApp, token: string, phone: string, purpose: 'app_bind_phone' | 'app_change_phone') =>
  codeFor(t, token, 'phone', phone, purpose);

/** Every member row of a tenant, by id (to show a refused call changed nothing). */
export const membersOf = (t: TestApp, tenantId: number) => t.db.selectFrom('member').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute();

/** A real .xlsx built by exceljs: a header row and rows under it. */
export async function workbook(header: readonly string[], rows: (string | number | null)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  ws.addRow([...header]);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The rows of the first sheet of an .xlsx (or the sheet of this name), as text. */
export async function readWorkbook(body: Buffer, sheet?: string): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const out: string[][] = [];
  const ws = sheet === undefined ? wb.worksheets[0] : wb.getWorksheet(sheet);
  ws!.eachRow((r) => {
    out.push((r.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v))));
  });
  return out;
}

/** Posts a multipart body with one file part (or none) to a call of the API. */
export async function upload(
  t: TestApp,
  path: string,
  token: string,
  file: { filename: string; body: Buffer } | null,
  extra: { field?: string; contentType?: string; more?: { filename: string; body: Buffer }[] } = {},
): Promise<Envelope<BatchResult & { id: number }>> {
  const boundary = `----hublink${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nx\r\n`)];
  for (const f of [...(file ? [file] : []), ...(extra.more ?? [])]) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${extra.field ?? 'file'}"; filename="${f.filename}"\r\n` +
          `Content-Type: ${extra.contentType ?? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'}\r\n\r\n`,
      ),
      f.body,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1${path}`,
    payload: Buffer.concat(parts),
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  const env = res.json<Envelope<BatchResult & { id: number }>>();
  const called = t.app.endpoints.find((e) => e.url === `/api/v1${path}`);
  if (called && env.code === CODE.ok) checkAnswer(called.endpoint, env);
  return env;
}

/** The status of an import, as its tenant reads it. */
export async function statusOf(t: TestApp, token: string, id?: number): Promise<ImportStatus | null> {
  const res = await t.call(batchStatus, { token, ...(id === undefined ? {} : { query: { id } }) });
  if (res.code !== CODE.ok) throw new Error(`batch_status answered ${res.code} ${res.msg}`);
  return res.data ?? null;
}

/**
 * Uploads an import file and, when the upload is taken, waits for its job (the app runs jobs) and
 * answers the upload's envelope with the import's result as its data; a refused upload as it is.
 */
export async function imported(t: TestApp, token: string, file: { filename: string; body: Buffer } | null, extra: Parameters<typeof upload>[4] = {}): Promise<Envelope<BatchResult>> {
  const res = await upload(t, batchAddRouters.path, token, file, extra);
  if (res.code !== CODE.ok) return res;
  const id = res.data!.id;
  let status: ImportStatus | null = null;
  await until(async () => (status = await statusOf(t, token, id))?.state !== IMPORT_STATE.running, `import ${id} ends`, 120_000);
  return { code: res.code, msg: res.msg, data: status!.result! };
}
