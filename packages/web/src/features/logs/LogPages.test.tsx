import { CODE, LIMITS, M, XLSX_TYPE, type ConnectLogItem, type OnlineLogItem } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import { saver } from '../../api/files';
import { toast } from '../../api/notify';
import { mockApi, ok, refused } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import ConnectLogPage from './ConnectLogPage';
import OnlineLogPage from './OnlineLogPage';
import SoftwareLoginPage from './SoftwareLoginPage';

const u = () => userEvent.setup({ delay: null });
const LONG = 60_000;

const connectRows = (n: number, from = 0): ConnectLogItem[] =>
  Array.from({ length: n }, (_, i) => ({
    router_name: `gw_${String(from + i).padStart(2, '0')}`,
    remote_ip: '203.0.113.7',
    remote_port: 40000 + from + i,
    version: '3.1.0',
    online: (from + i) % 2,
    create_time: '2026-01-02 10:00:00',
  }));

const session = (over: Partial<OnlineLogItem>): OnlineLogItem => ({
  router_name: 'gw_a',
  network_number: '',
  link_router_name: '',
  pop_name: '',
  area: '',
  orig: '1.2.3.4',
  vpn_ip: '10.8.0.2',
  start_time: '2026-01-02 10:00:00',
  end_time: '2026-01-02 11:01:01',
  online_time: 3661,
  ...over,
});

/** A blob's bytes (jsdom's Blob has no arrayBuffer()). */
const bytesOf = (blob: Blob) =>
  new Promise<number[]>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve([...new Uint8Array(reader.result as ArrayBuffer)]);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });

const today = () => dayjs().format('YYYY-MM-DD');
const weekAgo = () => dayjs().subtract(LIMITS.logRangeDays, 'day').format('YYYY-MM-DD');

describe('ConnectLogPage', () => {
  it('asks for the last days to today by default, shows the rows, and searches by member name', async () => {
    const m = mockApi({ '/logs/connect': (c) => ({ code: 200, msg: 'success', data: connectRows(c.query.search ? 1 : 2), count: c.query.search ? 1 : 2 }) });
    renderWithProviders(<ConnectLogPage />, { route: '/logs/connect' });
    await shows('gw_01');
    expect(m.callsTo('/logs/connect')[0]!.query).toEqual({ page: '1', limit: String(LIMITS.pageSize), start_time: weekAgo(), end_time: today() });
    expect(screen.getByText(M.logConnectUp)).toBeInTheDocument();
    expect(screen.getByText(M.logConnectDown)).toBeInTheDocument();
    expect(screen.getByDisplayValue(weekAgo())).toBeInTheDocument();
    expect(screen.getByDisplayValue(today())).toBeInTheDocument();
    // One page: no pager.
    expect(document.querySelector('.ant-pagination')).toBeNull();
    await u().type(screen.getByPlaceholderText(M.logSearchMember), 'gw_00{Enter}');
    await waitFor(() => expect(m.callsTo('/logs/connect').at(-1)!.query).toMatchObject({ page: '1', search: 'gw_00' }));
  }, LONG);

  it('steps back to the previous page when a later page comes back empty', async () => {
    // The log had 21 rows when page 3 was asked; it has 20 now.
    const m = mockApi({
      '/logs/connect': (c) => {
        const page = Number(c.query.page);
        return { code: 200, msg: 'success', data: page <= 2 ? connectRows(10, (page - 1) * 10) : [], count: page <= 2 ? 21 : 20 };
      },
    });
    renderWithProviders(<ConnectLogPage />, { route: '/logs/connect' });
    await shows('gw_00');
    await u().click(screen.getByTitle('3'));
    await waitFor(() => expect(m.callsTo('/logs/connect').map((c) => c.query.page)).toEqual(['1', '3', '2']));
    await shows('gw_10');
  }, LONG);

  it("export warns '数据为空，请重新筛选数据！' without a call when the list is empty", async () => {
    const m = mockApi({ '/logs/connect': { code: 200, msg: 'success', data: [], count: 0 } });
    renderWithProviders(<ConnectLogPage />, { route: '/logs/connect' });
    await waitFor(() => expect(m.callsTo('/logs/connect')).toHaveLength(1));
    await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
    await shows(M.empty);
    await u().click(screen.getByRole('button', { name: new RegExp(M.logExport) }));
    await shows(M.exportEmpty);
    expect(m.callsTo('/logs/export')).toHaveLength(0);
  }, LONG);

  it("exports the page's search and days, decodes the server's base64 workbook into its file_name, and warns with the server's refusal", async () => {
    const save = vi.spyOn(saver, 'save').mockImplementation(() => {});
    const warning = vi.spyOn(toast, 'warning');
    const error = vi.spyOn(toast, 'error');
    const m = mockApi({ '/logs/connect': { code: 200, msg: 'success', data: connectRows(2), count: 2 }, '/logs/export': refused(M.exportEmpty) });
    renderWithProviders(<ConnectLogPage />, { route: '/logs/connect' });
    await shows('gw_01');
    await u().type(screen.getByPlaceholderText(M.logSearchMember), 'gw{Enter}');
    const exportButton = () => screen.getByRole('button', { name: new RegExp(M.logExport) });
    await u().click(exportButton());
    await waitFor(() => expect(m.callsTo('/logs/export')).toHaveLength(1));
    expect(m.callsTo('/logs/export')[0]!.query).toEqual({ type: 'connect', search: 'gw', start_time: weekAgo(), end_time: today() });
    await shows(M.exportEmpty);
    expect(warning).toHaveBeenCalledWith(M.exportEmpty);
    expect(error).not.toHaveBeenCalled();
    expect(save).not.toHaveBeenCalled();

    // Bytes that are not text (a zip starts PK\x03\x04), so a decoder that went through UTF-8 would fail.
    const bytes = [0x50, 0x4b, 0x03, 0x04, 0xff, 0x00, 0x80, 0xfe];
    const data = btoa(String.fromCharCode(...bytes));
    m.answer('/logs/export', ok({ file_name: '连接日志-20260102.xlsx', data }, 'success'));
    await u().click(exportButton());
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    const [blob, name] = save.mock.calls[0]!;
    expect(name).toBe('连接日志-20260102.xlsx');
    expect(blob.type).toBe(XLSX_TYPE);
    expect(await bytesOf(blob)).toEqual(bytes);
    await shows(M.exported);

    m.answer('/logs/export', refused(M.internalError, CODE.internal));
    await u().click(exportButton());
    await waitFor(() => expect(error).toHaveBeenCalledWith(M.internalError));
    expect(save).toHaveBeenCalledTimes(1);
  }, LONG);
});

describe('ConnectLogPage: the variant with p2p and POP tabs (spec 3 §2.10)', () => {
  it('shows each mode’s sessions with the connection that carried them, and exports that tab', async () => {
    vi.spyOn(saver, 'save').mockImplementation(() => {});
    const m = mockApi({
      '/logs/connect': (c) => ({
        code: 200,
        msg: 'success',
        data:
          c.query.mode === 'pop'
            ? [{ ...session({ router_name: 'laptop', pop_name: '上海POP', area: '华东' }), remote_ip: '', remote_port: 0, version: '', online: 0, create_time: '2026-01-02 10:00:00' }]
            : c.query.mode === 'p2p'
              ? [{ ...session({ network_number: 'NAAA', link_router_name: 'center1' }), remote_ip: '198.51.100.9', remote_port: 51000, version: '3.1.0', online: 0, create_time: '2026-01-02 10:00:00' }]
              : connectRows(1),
        count: 1,
      }),
      '/logs/export': refused(M.exportEmpty),
    });
    renderWithProviders(<ConnectLogPage />, { route: '/logs/connect' });
    await shows('gw_00');
    expect(m.callsTo('/logs/connect')[0]!.query.mode).toBeUndefined();
    await u().click(screen.getByRole('tab', { name: M.logModeP2p }));
    await shows('center1');
    const p2p = screen.getByRole('tabpanel');
    expect(within(p2p).getByText('198.51.100.9')).toBeInTheDocument();
    expect(within(p2p).getByRole('columnheader', { name: M.logPeer })).toBeInTheDocument();
    expect(m.callsTo('/logs/connect').at(-1)!.query).toMatchObject({ mode: 'p2p' });
    await u().click(within(p2p).getByRole('button', { name: new RegExp(M.logExport) }));
    await waitFor(() => expect(m.callsTo('/logs/export')[0]!.query).toMatchObject({ type: 'connect_p2p' }));
    await u().click(screen.getByRole('tab', { name: M.logModePop }));
    await shows('上海POP');
    expect(within(screen.getByRole('tabpanel')).getByRole('columnheader', { name: M.logArea })).toBeInTheDocument();
    expect(m.callsTo('/logs/connect').at(-1)!.query).toMatchObject({ mode: 'pop' });
  }, LONG);
});

describe('OnlineLogPage', () => {
  it('shows p2p sessions with network and peer, and POP sessions with POP and area in their tab', async () => {
    const m = mockApi({
      '/logs/online': (c) => ({
        code: 200,
        msg: 'success',
        data: c.query.mode === 'pop' ? [session({ router_name: 'laptop', pop_name: '上海POP', area: '华东' })] : [session({ network_number: 'NAAA', link_router_name: 'center1', end_time: '' })],
        count: 1,
      }),
    });
    renderWithProviders(<OnlineLogPage />, { route: '/logs/online' });
    await shows('center1');
    expect(m.callsTo('/logs/online')[0]!.query).toMatchObject({ mode: 'p2p', start_time: weekAgo(), end_time: today() });
    expect(screen.getByRole('columnheader', { name: M.logPeer })).toBeInTheDocument();
    expect(screen.getByText(M.logOngoing)).toBeInTheDocument();
    await u().click(screen.getByRole('tab', { name: M.logModePop }));
    await shows('上海POP');
    const pop = screen.getByRole('tabpanel');
    expect(within(pop).getByRole('columnheader', { name: M.logArea })).toBeInTheDocument();
    expect(within(pop).getByText('1小时1分1秒')).toBeInTheDocument();
    expect(m.callsTo('/logs/online').at(-1)!.query).toMatchObject({ mode: 'pop' });
  }, LONG);

  it('asks again from page 1 for a new date range', async () => {
    const m = mockApi({ '/logs/online': { code: 200, msg: 'success', data: [session({ network_number: 'NAAA' })], count: 1 } });
    renderWithProviders(<OnlineLogPage />, { route: '/logs/online' });
    await shows('NAAA');
    const start = screen.getByDisplayValue(weekAgo());
    await u().click(start);
    await u().clear(start);
    await u().type(start, '2026-01-01{Enter}');
    const end = screen.getByDisplayValue(today());
    await u().click(end);
    await u().clear(end);
    await u().type(end, '2026-01-05{Enter}');
    await waitFor(() => expect(m.callsTo('/logs/online').at(-1)!.query).toMatchObject({ page: '1', start_time: '2026-01-01', end_time: '2026-01-05' }));
  }, LONG);
});

describe('SoftwareLoginPage', () => {
  it('lists sign-ins with the client system and exports them as software_login', async () => {
    vi.spyOn(saver, 'save').mockImplementation(() => {});
    const m = mockApi({
      '/logs/software_login': {
        code: 200,
        msg: 'success',
        data: [{ router_name: 'laptop_li', ip: '192.168.1.5', os: 'macos', version: '2.0.1', sys_brand: 'Apple', sys_model: 'MacBook', sys_version: '14.2', create_time: '2026-01-02 10:00:00' }],
        count: 1,
      },
      '/logs/export': refused(M.exportEmpty),
    });
    renderWithProviders(<SoftwareLoginPage />, { route: '/logs/software_login' });
    await shows('MacBook');
    expect(screen.getByRole('columnheader', { name: M.logSysBrand })).toBeInTheDocument();
    await u().click(screen.getByRole('button', { name: new RegExp(M.logExport) }));
    await waitFor(() => expect(m.callsTo('/logs/export')[0]!.query).toMatchObject({ type: 'software_login' }));
  }, LONG);
});
