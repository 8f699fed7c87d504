import { batchAddRouters, CODE, exportRouters, M, softwareTemplate } from '@hublink/contract';
import type { MessageInstance } from 'antd/es/message/interface';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok, refused } from '../test/mockApi';
import { browser } from './client';
import { download, fileNameOf, saver, upload } from './files';
import { bindNotifier } from './notify';
import { session } from './session';

const notifier = { success: vi.fn(), error: vi.fn(), warning: vi.fn() };
const save = vi.spyOn(saver, 'save').mockImplementation(() => {});
const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});

beforeEach(() => {
  session.clear();
  session.setToken('tok-1', 3600);
  bindNotifier(notifier as unknown as MessageInstance);
  vi.clearAllMocks();
});
afterEach(() => bindNotifier(null));

const fileAnswer = (headers: Record<string, string>) => async () => new Response(new Blob(['PK']), { status: 200, headers });

describe('fileNameOf', () => {
  it('prefers the UTF-8 name, then the plain one', () => {
    expect(fileNameOf(`attachment; filename="_____.xlsx"; filename*=UTF-8''${encodeURIComponent('成员列表.xlsx')}`)).toBe('成员列表.xlsx');
    expect(fileNameOf('attachment; filename="a b.xlsx"')).toBe('a b.xlsx');
    expect(fileNameOf(null)).toBeNull();
    expect(fileNameOf('inline')).toBeNull();
  });
});

describe('download', () => {
  it('sends the bearer token and the query, and saves the blob under the fallback name without a header', async () => {
    const m = mockApi({});
    m.fetch.mockImplementationOnce(fileAnswer({ 'Content-Type': 'application/octet-stream' }));
    expect(await download(exportRouters, { type: 2, search: 'a' }, 'list.xlsx')).toBe(true);
    const [url, init] = m.fetch.mock.calls[0]!;
    expect(String(url)).toBe('/api/v1/router/export?type=2&search=a');
    expect((init!.headers as Record<string, string>).Authorization).toBe('Bearer tok-1');
    expect(save).toHaveBeenCalledWith(expect.anything(), 'list.xlsx');
  });

  it("shows an envelope's msg as a warning and saves nothing", async () => {
    mockApi({ '/router/export': refused(M.exportEmpty) });
    expect(await download(exportRouters, { type: 2 }, 'x.xlsx')).toBe(false);
    expect(notifier.warning).toHaveBeenCalledWith(M.exportEmpty, expect.any(Number));
    expect(save).not.toHaveBeenCalled();
  });

  it('a session code ends the session as every call does', async () => {
    mockApi({ '/router/software_template': refused(M.tokenInvalid, CODE.tokenInvalid) });
    expect(await download(softwareTemplate, undefined, 'x.xlsx')).toBe(false);
    expect(session.token()).toBeNull();
    expect(reload).toHaveBeenCalled();
  });
});

describe('upload', () => {
  it('posts the file as multipart field "file" with the token and returns the envelope', async () => {
    const m = mockApi({ '/router/batch': ok({ id: 1 }, M.importStarted) });
    const env = await upload(batchAddRouters, new File(['x'], 'a.xlsx'));
    expect(env.code).toBe(CODE.ok);
    const init = m.fetch.mock.calls[0]![1]!;
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok-1');
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
    expect((init.body as FormData).get('file')).toHaveProperty('name', 'a.xlsx');
    expect(notifier.success).toHaveBeenCalledWith(M.importStarted, expect.any(Number));
  });

  it("a refusal shows the server's msg; a transport failure says 系统异常,请稍候尝试!", async () => {
    const m = mockApi({ '/router/batch': refused(M.fileHeaderWrong) });
    expect((await upload(batchAddRouters, new File(['x'], 'a.xlsx'))).msg).toBe(M.fileHeaderWrong);
    expect(notifier.error).toHaveBeenCalledWith(M.fileHeaderWrong, expect.any(Number));
    m.fetch.mockRejectedValueOnce(new TypeError('network'));
    expect((await upload(batchAddRouters, new File(['x'], 'a.xlsx'))).msg).toBe(M.uploadError);
    expect(notifier.error).toHaveBeenLastCalledWith(M.uploadError, expect.any(Number));
  });
});
