import { fmt, LIMITS, M, type BatchResult, type ImportStatus } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saver } from '../../api/files';
import { mockApi, ok, refused } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { BatchAddDialog } from './BatchAddDialog';
import { BatchDeleteDialog } from './BatchDeleteDialog';
import { softwareRows } from './testData';

/** Several dialogs' worth of typing and clicking; antd in jsdom is slow on a loaded machine. */
const LONG = 60_000;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const result: BatchResult = {
  success: 1,
  fail: 1,
  rows: [
    { row: 2, router_name: 'zhangsan01', ok: true, msg: M.importAdded },
    { row: 3, router_name: 'li', ok: false, msg: M.memberAccountChars },
  ],
};

// The picker's own filter is off here, as it is for dropped files: the dialog's checks must speak.
const u = () => userEvent.setup({ delay: null, applyAccept: false });
const fileInput = () => document.querySelector<HTMLInputElement>('input[type=file]')!;
const xlsx = (name = 'members.xlsx', size = 10) => new File([new Uint8Array(size)], name, { type: XLSX_TYPE });

/** An import as /router/batch_status answers it: running with these counts, or ended with `result`. */
const running = (done: number, fail: number, total = 2): ImportStatus => ({
  id: 7,
  state: 'running',
  total,
  done,
  fail,
  result: { success: done - fail, fail, rows: Array.from({ length: fail }, (_, i) => ({ row: i + 2, router_name: `bad${i}`, ok: false, msg: M.importPasswordRule })) },
});
const ended: ImportStatus = { id: 7, state: 'done', total: 2, done: 2, fail: 1, result };

/** The dialog as the member page holds it: closed by its own buttons, opened again by the page's. */
function Reopenable() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button onClick={() => setOpen(true)}>reopen</button>
      <BatchAddDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}
/** The footer's 关闭 (the corner's × is named 关闭 as well). */
const footerClose = () => screen.getAllByRole('button', { name: /^关\s*闭$/ }).find((b) => b.classList.contains('ant-btn'))!;

describe('BatchAddDialog', () => {
  afterEach(() => sessionStorage.clear());

  it('refuses a non-xlsx and a file over 2 MB without any call', async () => {
    const m = mockApi({ '/router/batch': ok({ id: 7 }, M.importStarted), '/router/batch_status': ok(null) });
    renderWithProviders(<BatchAddDialog open onClose={() => {}} />);
    await u().upload(fileInput(), new File(['a,b'], 'members.csv', { type: 'text/csv' }));
    await shows(M.fileFormatWrong);
    await u().upload(fileInput(), xlsx('big.xlsx', LIMITS.uploadMaxBytes + 1));
    await shows(M.fileTooLarge);
    expect(screen.queryByText('members.csv')).not.toBeInTheDocument();
    expect(screen.queryByText('big.xlsx')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: M.memberUploadSubmit })).toBeDisabled();
    expect(m.callsTo('/router/batch')).toHaveLength(0);
  }, LONG);

  it('keeps one file, uploads it, shows the progress while the job runs, then the result table with its summary', async () => {
    // The job's progress as the polls see it: nothing yet (before the upload), then running, then ended.
    const answers = [ok(null), ok(running(0, 0)), ok(running(1, 1)), ok(ended)];
    let polls = 0;
    const m = mockApi({
      '/router/batch': ok({ id: 7 }, M.importStarted),
      '/router/batch_status': () => answers[Math.min(polls++, answers.length - 1)]!,
      '/router/software_template': refused(M.internalError),
    });
    const save = vi.spyOn(saver, 'save').mockImplementation(() => {});
    renderWithProviders(<BatchAddDialog open onClose={() => {}} />);
    await waitFor(() => expect(polls).toBe(1));
    await u().upload(fileInput(), xlsx('first.xlsx'));
    await shows('first.xlsx');
    await u().upload(fileInput(), xlsx('second.xlsx', LIMITS.uploadMaxBytes));
    await shows('second.xlsx');
    expect(screen.queryByText('first.xlsx')).not.toBeInTheDocument();
    expect(m.callsTo('/router/batch')).toHaveLength(0);
    // Leaving before the upload discards the chosen file: 取消; the progress and the result are read-only: 关闭.
    expect(screen.getByRole('button', { name: /^取\s*消$/ })).toBeInTheDocument();
    await u().click(screen.getByRole('button', { name: M.memberUploadSubmit }));
    await waitFor(() => expect(m.callsTo('/router/batch')).toHaveLength(1));
    expect(m.callsTo('/router/batch')[0]!.method).toBe('POST');
    const sent = m.fetch.mock.calls.find((c) => String(c[0]).endsWith('/router/batch'))!;
    expect((sent[1]!.body as FormData).get('file')).toHaveProperty('name', 'second.xlsx');
    await shows(fmt(M.importProgress, { done: 0, total: 2, fail: 0 }));
    expect(screen.getByText(M.importRunningHint)).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^取\s*消$/ })).not.toBeInTheDocument();
    await shows(fmt(M.importProgress, { done: 1, total: 2, fail: 1 }));
    await shows('成功 1 条，失败 1 条');
    expect(m.callsTo('/router/batch_status').every((c) => c.query.id === undefined)).toBe(true);
    const refusedRow = screen.getByText('li').closest('tr')!;
    expect(within(refusedRow).getByText(M.memberResultFail)).toBeInTheDocument();
    expect(within(refusedRow).getByText(M.memberAccountChars)).toBeInTheDocument();
    expect(within(screen.getByText('zhangsan01').closest('tr')!).getByText(M.memberResultOk)).toBeInTheDocument();
    // The refused rows come first: in a long import they are what needs a look.
    expect([...document.querySelectorAll('.ant-table-tbody tr.ant-table-row')].map((r) => r.querySelector('td')!.textContent)).toEqual(['3', '2']);
    // The footer's button (the corner's × is named 关闭 as well).
    expect(screen.getAllByRole('button', { name: /^关\s*闭$/ }).filter((b) => b.classList.contains('ant-btn'))).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /^取\s*消$/ })).not.toBeInTheDocument();
    // Ended: the polling stops.
    const seen = m.callsTo('/router/batch_status').length;
    await new Promise((r) => setTimeout(r, LIMITS.importPollMs * 1.5));
    expect(m.callsTo('/router/batch_status')).toHaveLength(seen);
    expect(save).not.toHaveBeenCalled();
  }, LONG);

  it("opened while the tenant's import runs, shows its progress; closing it stops nothing; the result shows when it is reopened after the end", async () => {
    let state: ImportStatus = running(3, 1, 10);
    const m = mockApi({ '/router/batch_status': () => ok(state) });
    sessionStorage.setItem('hublink.memberImport.unseen', '7');
    renderWithProviders(<Reopenable />);
    await shows(fmt(M.importProgress, { done: 3, total: 10, fail: 1 }));
    expect(screen.queryByRole('button', { name: M.memberUploadSubmit })).not.toBeInTheDocument();
    await u().click(footerClose());
    await waitFor(() => expect(screen.queryByText(M.importRunningHint)).not.toBeInTheDocument());
    expect(m.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    state = { ...ended, total: 10, done: 10 };
    await u().click(screen.getByRole('button', { name: 'reopen' }));
    await shows('成功 1 条，失败 1 条');
    // Seen once: closing the result forgets it, and the next opening is the upload form.
    await u().click(footerClose());
    await waitFor(() => expect(screen.queryByText('成功 1 条，失败 1 条')).not.toBeInTheDocument());
    await u().click(screen.getByRole('button', { name: 'reopen' }));
    await shows(M.memberTemplateDownload);
    expect(screen.queryByText('成功 1 条，失败 1 条')).not.toBeInTheDocument();
  }, LONG);

  it('reopened mid-run, shows the progress with every row refused so far, then the whole result', async () => {
    let state: ImportStatus = running(30, 12, 40);
    mockApi({ '/router/batch_status': () => ok(state) });
    sessionStorage.setItem('hublink.memberImport.unseen', '7');
    renderWithProviders(<Reopenable />);
    await shows(fmt(M.importProgress, { done: 30, total: 40, fail: 12 }));
    await u().click(footerClose());
    await waitFor(() => expect(screen.queryByText(M.importRunningHint)).not.toBeInTheDocument());
    await u().click(screen.getByRole('button', { name: 'reopen' }));
    await shows(fmt(M.importProgress, { done: 30, total: 40, fail: 12 }));
    // Twelve refused rows, ten to a page: all of them are there.
    expect(screen.getByText('bad0')).toBeInTheDocument();
    expect(screen.getAllByText(M.importPasswordRule)).toHaveLength(10);
    await u().click(screen.getByTitle('2'));
    await shows('bad11');
    state = { id: 7, state: 'done', total: 40, done: 40, fail: 12, result: { ...running(40, 12, 40).result!, success: 28 } };
    await shows('成功 28 条，失败 12 条');
  }, LONG);

  it("the form offers the latest import's result, also one started elsewhere", async () => {
    mockApi({ '/router/batch_status': ok(ended) });
    renderWithProviders(<Reopenable />);
    await shows(fmt(M.importLast, { ok: 1, fail: 1 }));
    expect(screen.getByRole('button', { name: M.memberUploadSubmit })).toBeInTheDocument();
    await u().click(screen.getByText(M.importLastView));
    await shows('成功 1 条，失败 1 条');
    expect(screen.getByText(M.memberAccountChars)).toBeInTheDocument();
    // Closed, it is the form again, with the offer.
    await u().click(footerClose());
    await u().click(screen.getByRole('button', { name: 'reopen' }));
    await shows(fmt(M.importLast, { ok: 1, fail: 1 }));
    expect(screen.queryByText('成功 1 条，失败 1 条')).not.toBeInTheDocument();
  }, LONG);

  it('an import that stopped short says so above the rows it did', async () => {
    sessionStorage.setItem('hublink.memberImport.unseen', '7');
    mockApi({ '/router/batch_status': ok({ ...ended, state: 'failed', total: 5 }) });
    renderWithProviders(<BatchAddDialog open onClose={() => {}} />);
    await shows(M.importFailed);
    expect(screen.getByText('成功 1 条，失败 1 条')).toBeInTheDocument();
  }, LONG);

  it("a refused upload shows the server's message and forgets the file", async () => {
    const m = mockApi({ '/router/batch': refused(M.importBusy, 429), '/router/batch_status': ok(null) });
    renderWithProviders(<BatchAddDialog open onClose={() => {}} />);
    await u().upload(fileInput(), xlsx('wrong.xlsx'));
    await u().click(screen.getByRole('button', { name: M.memberUploadSubmit }));
    await shows(M.importBusy);
    await waitFor(() => expect(screen.queryByText('wrong.xlsx')).not.toBeInTheDocument());
    expect(m.callsTo('/router/batch')).toHaveLength(1);
    expect(screen.queryByText(/成功 \d+ 条/)).not.toBeInTheDocument();
  }, LONG);
});

describe('BatchDeleteDialog', () => {
  it("asks for '确认操作', then at least one member, then shows the result", async () => {
    const m = mockApi({
      '/router/batch_delete': ok({ success: 1, fail: 0, rows: [{ row: 0, router_name: 'bob02', ok: true, msg: M.importRemoved }] }, M.batchDone),
    });
    renderWithProviders(<BatchDeleteDialog open rows={softwareRows} onClose={() => {}} />);
    const confirm = await screen.findByRole('dialog');
    const okButton = within(confirm).getByRole('button', { name: /确\s*定|OK/ });
    expect(okButton).toBeDisabled();
    await u().type(within(confirm).getByLabelText(`请输入“${M.confirmPhrase}”`), '确认');
    expect(okButton).toBeDisabled();
    await u().type(within(confirm).getByLabelText(`请输入“${M.confirmPhrase}”`), '操作');
    await u().click(okButton);
    await shows(M.memberBatchListHint);
    await u().click(screen.getByRole('button', { name: /^删\s*除$/ }));
    await shows(M.selectSoftwareMember);
    expect(m.calls).toHaveLength(0);
    const row = screen.getByText('bob02').closest('tr')!;
    await u().click(within(row).getByRole('checkbox'));
    await u().click(screen.getByRole('button', { name: /^删\s*除$/ }));
    await waitFor(() => expect(m.callsTo('/router/batch_delete')).toHaveLength(1));
    expect(m.callsTo('/router/batch_delete')[0]!.body).toEqual({ router_name: ['bob02'] });
    await shows('成功 1 条，失败 0 条');
    expect(screen.getByText(M.importRemoved)).toBeInTheDocument();
  }, LONG);

  it('file mode checks the file before it uploads it to /router/batch_delete_file', async () => {
    const m = mockApi({ '/router/batch_delete_file': ok({ success: 0, fail: 1, rows: [{ row: 2, router_name: 'ghost', ok: false, msg: M.memberNotFound }] }, M.batchDone) });
    renderWithProviders(<BatchDeleteDialog open rows={softwareRows} onClose={() => {}} />);
    const confirm = await screen.findByRole('dialog');
    await u().type(within(confirm).getByLabelText(`请输入“${M.confirmPhrase}”`), M.confirmPhrase);
    await u().click(within(confirm).getByRole('button', { name: /确\s*定|OK/ }));
    await u().click(await screen.findByText(M.memberBatchModeFile));
    await u().upload(fileInput(), new File(['x'], 'names.xls'));
    await shows(M.fileFormatWrong);
    expect(m.calls).toHaveLength(0);
    await u().upload(fileInput(), xlsx('names.xlsx'));
    await u().click(screen.getByRole('button', { name: /^删\s*除$/ }));
    await waitFor(() => expect(m.callsTo('/router/batch_delete_file')).toHaveLength(1));
    await shows('成功 0 条，失败 1 条');
    expect(screen.getByText(M.memberNotFound)).toBeInTheDocument();
  }, LONG);
});
