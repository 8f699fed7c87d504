import { LIMITS, M, type BatchResult } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
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

describe('BatchAddDialog', () => {
  it('refuses a non-xlsx and a file over 2 MB without any call', async () => {
    const m = mockApi({ '/router/batch': ok(result, M.batchDone) });
    renderWithProviders(<BatchAddDialog open onClose={() => {}} />);
    await u().upload(fileInput(), new File(['a,b'], 'members.csv', { type: 'text/csv' }));
    await shows(M.fileFormatWrong);
    await u().upload(fileInput(), xlsx('big.xlsx', LIMITS.uploadMaxBytes + 1));
    await shows(M.fileTooLarge);
    expect(screen.queryByText('members.csv')).not.toBeInTheDocument();
    expect(screen.queryByText('big.xlsx')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: M.memberUploadSubmit })).toBeDisabled();
    expect(m.calls).toHaveLength(0);
  }, LONG);

  it('keeps one file, uploads it, and shows the result table with its summary', async () => {
    const m = mockApi({ '/router/batch': ok(result, M.batchDone), '/router/software_template': refused(M.internalError) });
    const save = vi.spyOn(saver, 'save').mockImplementation(() => {});
    renderWithProviders(<BatchAddDialog open onClose={() => {}} />);
    await u().upload(fileInput(), xlsx('first.xlsx'));
    await shows('first.xlsx');
    await u().upload(fileInput(), xlsx('second.xlsx', LIMITS.uploadMaxBytes));
    await shows('second.xlsx');
    expect(screen.queryByText('first.xlsx')).not.toBeInTheDocument();
    expect(m.calls).toHaveLength(0);
    // Leaving before the upload discards the chosen file: 取消; the result is read-only: 关闭.
    expect(screen.getByRole('button', { name: /^取\s*消$/ })).toBeInTheDocument();
    await u().click(screen.getByRole('button', { name: M.memberUploadSubmit }));
    await waitFor(() => expect(m.callsTo('/router/batch')).toHaveLength(1));
    expect(m.callsTo('/router/batch')[0]!.method).toBe('POST');
    expect(m.fetch.mock.calls[0]![1]!.body).toBeInstanceOf(FormData);
    expect((m.fetch.mock.calls[0]![1]!.body as FormData).get('file')).toHaveProperty('name', 'second.xlsx');
    await shows('成功 1 条，失败 1 条');
    const refusedRow = screen.getByText('li').closest('tr')!;
    expect(within(refusedRow).getByText(M.memberResultFail)).toBeInTheDocument();
    expect(within(refusedRow).getByText(M.memberAccountChars)).toBeInTheDocument();
    expect(within(screen.getByText('zhangsan01').closest('tr')!).getByText(M.memberResultOk)).toBeInTheDocument();
    // The footer's button (the corner's × is named 关闭 as well).
    expect(screen.getAllByRole('button', { name: /^关\s*闭$/ }).filter((b) => b.classList.contains('ant-btn'))).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /^取\s*消$/ })).not.toBeInTheDocument();
    expect(save).not.toHaveBeenCalled();
  }, LONG);

  it("a refused upload shows the server's message and forgets the file", async () => {
    const m = mockApi({ '/router/batch': refused(M.fileHeaderWrong) });
    renderWithProviders(<BatchAddDialog open onClose={() => {}} />);
    await u().upload(fileInput(), xlsx('wrong.xlsx'));
    await u().click(screen.getByRole('button', { name: M.memberUploadSubmit }));
    await shows(M.fileHeaderWrong);
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
