import { M, type DataOf, type downloadVersion, type LinuxReleaseItem, type ReleaseItem, CM } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import DownloadPage from './DownloadPage';
import { detectArch, detectPlatform } from './platform';

const UA = {
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36',
  linuxArm: 'Mozilla/5.0 (X11; Linux aarch64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
};

const release = (version: string, over: Partial<ReleaseItem> = {}): ReleaseItem => ({ version, notes: '', create_time: '2026-03-01 10:00:00', source: 'file', size: 52_428_800, ...over });
const linux = (panel: 'cli' | 'gui', platform: LinuxReleaseItem['platform'], version: string, create_time = '2026-03-02 10:00:00'): LinuxReleaseItem => ({
  ...release(version, { create_time }),
  panel,
  platform,
});
const ALL: DataOf<typeof downloadVersion> = {
  windows: release('2.1.0', { notes: '修复了断线重连\n提升了速度' }),
  macos: null,
  android: release('2.0.5', { size: 30_000_000 }),
  ios: release('2.0.0', { source: 'url', size: null }),
  linux: [linux('cli', 'amd64', '1.4.0'), linux('cli', 'arm64', '1.3.0', '2026-02-01 09:00:00'), linux('gui', 'amd64', '1.4.1', '2026-03-05 08:00:00')],
};

const renderAs = (userAgent: string, data = ALL) => {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent);
  mockApi({ '/download/version': ok(data) });
  return renderWithProviders(<DownloadPage />, { route: '/download' });
};
const cards = () => screen.getAllByRole('generic', { name: /^(Windows|macOS|Android|iOS|Linux)$/ }).filter((el) => el.classList.contains('ant-card'));

describe('DownloadPage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows a card per platform, the visitor’s first and marked, each with its version, notes and download', async () => {
    renderAs(UA.android);
    await screen.findByText(M.downloadIntro);
    await waitFor(() => expect(cards().map((c) => c.getAttribute('aria-label'))).toEqual(['Android', 'Windows', 'macOS', 'iOS', 'Linux']));
    const [android, windows, macos, ios, linuxCard] = cards() as [HTMLElement, HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    expect(within(android).getByText(M.downloadThisDevice)).toBeInTheDocument();
    expect(within(windows).queryByText(M.downloadThisDevice)).toBeNull();
    for (const fact of ['版本 2.0.5', '28.6 MB', '发布于 2026-03-01']) expect(within(android).getByText(fact)).toBeInTheDocument();
    expect(within(windows).getByText(/修复了断线重连/)).toBeInTheDocument();
    expect(within(windows).getByRole('link', { name: new RegExp(M.downloadButton) })).toHaveAttribute('href', '/api/download/windows');
    // A release published as a link opens where it is published, in a new tab.
    const store = within(ios).getByRole('link', { name: new RegExp(M.downloadExternal) });
    expect(store).toHaveAttribute('href', '/api/download/ios');
    expect(store).toHaveAttribute('target', '_blank');
    expect(within(macos).getByRole('button', { name: M.downloadNoRelease })).toBeDisabled();
    // Linux shows the newest version of each panel and opens the dialog.
    expect(within(linuxCard).getByText(`${M.panelCli} 1.4.0`)).toBeInTheDocument();
    expect(within(linuxCard).getByText(`${M.panelGui} 1.4.1`)).toBeInTheDocument();
    expect(within(linuxCard).getByRole('button', { name: new RegExp(M.downloadChoose) })).toBeEnabled();
  });

  it('chooses the Linux version and platform in a dialog, starting from the visitor’s processor', async () => {
    renderAs(UA.linuxArm);
    await waitFor(() => expect(cards()[0]).toHaveAttribute('aria-label', 'Linux'));
    await userEvent.click(within(cards()[0]!).getByRole('button', { name: new RegExp(M.downloadChoose) }));
    const dialog = await screen.findByRole('dialog', { name: M.downloadLinuxTitle });
    const download = () => within(dialog).getByRole('link', { name: new RegExp(M.downloadButton) });
    // cli first; its arm64 package is the visitor's.
    expect(within(dialog).getByRole('radio', { name: M.panelCli })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: M.archArm64 })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: M.archLoong64 })).toBeDisabled();
    expect(download()).toHaveAttribute('href', '/api/download/linux?panel=cli&platform=arm64');
    expect(within(dialog).getByText('版本 1.3.0')).toBeInTheDocument();

    // The graphical panel has no arm64 package: the platform moves to one it has.
    await userEvent.click(within(dialog).getByText(M.panelGui));
    expect(within(dialog).getByRole('radio', { name: M.archAmd64 })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: M.archArm64 })).toBeDisabled();
    expect(download()).toHaveAttribute('href', '/api/download/linux?panel=gui&platform=amd64');

    await userEvent.click(within(dialog).getByRole('button', { name: new RegExp([...M.cancel].join('\\s?')) }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('offers the standard OpenVPN clients when nothing has been published yet', async () => {
    renderAs(UA.windows, { windows: null, macos: null, android: null, ios: null, linux: [] });
    expect(await screen.findByText(CM.standardClientsTitle)).toBeInTheDocument();
    expect(screen.getByText(new RegExp(CM.standardClientsOnly))).toBeInTheDocument();
    for (const name of [CM.standardClientConnect, CM.standardClientTunnelblick, CM.standardClientLinux]) expect(screen.getByText(name)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: new RegExp(M.downloadButton) })).toBeNull();
    expect(screen.getAllByRole('link', { name: new RegExp(CM.standardClientGet) }).map((a) => a.getAttribute('href'))).toEqual(['https://openvpn.net/client/', 'https://tunnelblick.net/']);
  });
});

describe('platform detection', () => {
  it('names the platform and the Linux processor of common browsers', () => {
    expect(detectPlatform(UA.windows)).toBe('windows');
    expect(detectPlatform(UA.mac)).toBe('macos');
    // An iPad asks for the desktop site: a Mac with a touch screen.
    expect(detectPlatform(UA.mac, 5)).toBe('ios');
    expect(detectPlatform(UA.iphone)).toBe('ios');
    expect(detectPlatform(UA.android)).toBe('android');
    expect(detectPlatform(UA.linux)).toBe('linux');
    expect(detectPlatform('curl/8.5.0')).toBeNull();
    expect(detectArch(UA.linuxArm)).toBe('arm64');
    expect(detectArch(UA.linux)).toBe('amd64');
    expect(detectArch(UA.iphone)).toBeNull();
  });
});
