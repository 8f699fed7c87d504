import { CODE, fmt, M, type AnnouncementItem, type Envelope } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, type ApiCall } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import AnnouncementDetailPage from './AnnouncementDetailPage';
import AnnouncementsPage from './AnnouncementsPage';

const items = (n: number, from = 1): AnnouncementItem[] =>
  Array.from({ length: n }, (_, i) => ({ id: from + i, title: `公告${from + i}`, tag: i % 2 ? '' : '通知', release_time: `2024-03-${String(10 + i).padStart(2, '0')} 10:00:00` }));

const page = (data: AnnouncementItem[], count: number): Envelope<AnnouncementItem[]> => ({ code: CODE.ok, msg: 'success', data, count });

describe('AnnouncementsPage', () => {
  it('lists title (a link to the detail), tag and release time, without a pager on a single page', async () => {
    const { container } = (() => {
      mockApi({ '/announcements/lists': page(items(3), 3) });
      return renderWithProviders(<AnnouncementsPage />, { route: '/account/announcements' });
    })();
    const link = await screen.findByRole('link', { name: '公告1' });
    expect(link).toHaveAttribute('href', '/account/announcements/detail?id=1');
    const row = link.closest('tr')!;
    expect(within(row).getByText('通知')).toBeInTheDocument();
    expect(within(row).getByText('2024-03-10 10:00:00')).toBeInTheDocument();
    for (const h of [M.announcementColTitle, M.announcementColTag, M.announcementColRelease]) expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    expect(container.querySelector('.ant-pagination')).toBeNull();
  });

  it('pages 10 at a time with the small pager', async () => {
    const m = mockApi({
      '/announcements/lists': (c: ApiCall) => (c.query.page === '2' ? page(items(2, 11), 12) : page(items(10), 12)),
    });
    const { container } = renderWithProviders(<AnnouncementsPage />, { route: '/account/announcements' });
    await screen.findByRole('link', { name: '公告1' });
    expect(m.callsTo('/announcements/lists')[0]!.query).toEqual({ page: '1' });
    const pager = container.querySelector('.ant-pagination')!;
    expect(pager).not.toBeNull();
    expect(pager.className).toMatch(/mini|small/);
    await userEvent.click(within(pager as HTMLElement).getByTitle('2'));
    expect(await screen.findByRole('link', { name: '公告12' })).toBeInTheDocument();
    expect(m.callsTo('/announcements/lists').at(-1)!.query).toMatchObject({ page: '2' });
  });

  it('says 好像没有什么东西哦！ when there is none', async () => {
    mockApi({ '/announcements/lists': page([], 0) });
    renderWithProviders(<AnnouncementsPage />, { route: '/account/announcements' });
    expect(await screen.findByText(M.empty)).toBeInTheDocument();
  });
});

describe('AnnouncementDetailPage', () => {
  const detail = {
    id: 7,
    title: '春节期间服务安排',
    tag: '通知',
    release_time: '2024-02-01 10:00:00',
    content: '<p>春节期间<strong>照常</strong>服务</p><img src="/files/plan.png" alt="安排" onerror="window.__pwned=1"><script>window.__pwned=1</script>',
  };

  it('shows title, release time and the sanitised rich content', async () => {
    const m = mockApi({ '/announcements/info': ok(detail) });
    renderWithProviders(<AnnouncementDetailPage />, { route: '/account/announcements/detail?id=7' });
    expect(await screen.findByRole('heading', { name: detail.title })).toBeInTheDocument();
    expect(m.callsTo('/announcements/info')[0]!.query).toEqual({ id: '7' });
    expect(screen.getByText(fmt(M.announcementReleasedAt, { time: detail.release_time }))).toBeInTheDocument();
    expect(screen.getByText('照常')).toBeInTheDocument();
    const img = screen.getByRole('img', { name: '安排' });
    expect(img).not.toHaveAttribute('onerror');
    expect(document.querySelector('article script')).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('opens an image full size when it is clicked', async () => {
    mockApi({ '/announcements/info': ok(detail) });
    renderWithProviders(<AnnouncementDetailPage />, { route: '/account/announcements/detail?id=7' });
    const img = await screen.findByRole('img', { name: '安排' });
    expect(document.querySelector('.ant-image-preview')).toBeNull();
    await userEvent.click(img);
    await waitFor(() => expect(document.querySelector('.ant-image-preview')).not.toBeNull());
    const preview = document.querySelector('.ant-image-preview') as HTMLElement;
    expect(preview.querySelector('img')).toHaveAttribute('src', '/files/plan.png');
  });

  it('goes back when the announcement does not exist (204)', async () => {
    const m = mockApi({ '/announcements/info': { code: CODE.notFound, msg: M.notFound } });
    const { browser } = await import('../../api/client');
    let back = 0;
    const orig = browser.back;
    browser.back = () => void back++;
    try {
      renderWithProviders(<AnnouncementDetailPage />, { route: '/account/announcements/detail?id=999' });
      await waitFor(() => expect(m.callsTo('/announcements/info')).toHaveLength(1));
      await waitFor(() => expect(back).toBe(1));
      expect(await screen.findByText(M.notFound)).toBeInTheDocument();
    } finally {
      browser.back = orig;
    }
  });

  it('does not call the server without a valid id', async () => {
    const m = mockApi({});
    renderWithProviders(<AnnouncementDetailPage />, { route: '/account/announcements/detail?id=abc' });
    expect(await screen.findByText(M.notFound)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: M.backToList })).toHaveAttribute('href', '/account/announcements');
    expect(m.calls).toHaveLength(0);
  });
});
