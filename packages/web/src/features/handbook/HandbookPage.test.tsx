import { CODE, DOCUMENT_TYPE, fmt, handbookHref, M, type DocumentNode } from '@hublink/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi, ok, refused, type ApiCall } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import HandbookPage from './HandbookPage';

const doc = (id: number, fid: number, title: string): DocumentNode => ({ id, fid, title, type: DOCUMENT_TYPE.document, children: [] });
const MENU: DocumentNode[] = [
  { id: 1, fid: 0, title: '快速入门', type: DOCUMENT_TYPE.section, children: [doc(2, 1, '注册账号'), doc(3, 1, '登录控制台')] },
  { id: 4, fid: 0, title: '成员管理', type: DOCUMENT_TYPE.section, children: [{ id: 5, fid: 4, title: '导入', type: DOCUMENT_TYPE.section, children: [doc(6, 5, '批量导入')] }] },
];
const TITLES: Record<number, string> = { 2: '注册账号', 3: '登录控制台', 6: '批量导入' };
const ORDER = [2, 3, 6];

/** The documents as the server answers them, each linking to its neighbours; the first links to the last. */
function answerInfo(call: ApiCall) {
  const id = Number(call.query.id);
  const at = ORDER.indexOf(id);
  if (at < 0) return refused(M.documentNotFound, CODE.notFound);
  const link = (i: number) => (ORDER[i] ? { id: ORDER[i]!, title: TITLES[ORDER[i]!]! } : null);
  const content =
    id === 2
      ? `<p>第一篇正文</p><p><a href="${handbookHref(6, '批量导入')}" target="_blank" rel="noopener noreferrer">去批量导入</a></p><img src="/api/v1/document/image?name=${'a'.repeat(32)}.png" alt="截图">`
      : `<p>${TITLES[id]}的正文</p>`;
  return ok({ title: TITLES[id]!, content, before_doc: link(at - 1), after_doc: link(at + 1) });
}

const render = (route = '/handbook') => {
  const api = mockApi({ '/document/menu': ok(MENU), '/document/info': answerInfo });
  return { api, ...renderWithProviders(<HandbookPage />, { route, path: '/handbook' }) };
};
const query = (location: string) => Object.fromEntries(new URLSearchParams(location.split('?')[1]));

describe('HandbookPage', () => {
  it('opens the first document when the address names none, with the query id and title, its breadcrumb and next', async () => {
    const { location } = render();
    expect(await screen.findByText('第一篇正文')).toBeInTheDocument();
    await waitFor(() => expect(query(location())).toEqual({ id: '2', title: '注册账号' }));
    expect(screen.getByRole('heading', { name: '注册账号' })).toBeInTheDocument();
    const crumbs = document.querySelector('.ant-breadcrumb')!;
    expect(crumbs.textContent).toBe(`${M.routeHandbook}/快速入门/注册账号`);
    // The first document has no previous one.
    expect(screen.queryByText(new RegExp(`^${fmt(M.handbookPrevious, { title: '' })}`))).toBeNull();
    expect(screen.getByRole('button', { name: new RegExp(fmt(M.handbookNext, { title: '登录控制台' })) })).toBeInTheDocument();
    // The tree shows the sections, the one holding the document open.
    const tree = screen.getByRole('navigation', { name: M.handbookContents });
    expect(within(tree).getByText('快速入门')).toBeInTheDocument();
    expect(within(tree).getByText('登录控制台')).toBeInTheDocument();
    expect(within(tree).getByText('成员管理')).toBeInTheDocument();
    expect(within(tree).queryByText('批量导入')).toBeNull();
  });

  it('follows the tree, previous/next and links between documents, the query following each', async () => {
    const { api, location } = render(handbookHref(2, '注册账号'));
    await screen.findByText('第一篇正文');
    const tree = screen.getByRole('navigation', { name: M.handbookContents });

    await userEvent.click(within(tree).getByText('登录控制台'));
    expect(await screen.findByText('登录控制台的正文')).toBeInTheDocument();
    expect(query(location())).toEqual({ id: '3', title: '登录控制台' });

    // A section opens and closes in the tree; it is no document.
    await userEvent.click(within(tree).getByText('成员管理'));
    await userEvent.click(await within(tree).findByText('导入'));
    expect(await within(tree).findByText('批量导入')).toBeInTheDocument();
    expect(query(location())).toEqual({ id: '3', title: '登录控制台' });

    await userEvent.click(screen.getByRole('button', { name: new RegExp(fmt(M.handbookPrevious, { title: '注册账号' })) }));
    expect(await screen.findByText('第一篇正文')).toBeInTheDocument();
    expect(query(location())).toEqual({ id: '2', title: '注册账号' });

    // A link in the content to another document opens it here, not in a new tab.
    const link = screen.getByRole('link', { name: '去批量导入' });
    expect(fireEvent.click(link)).toBe(false);
    expect(await screen.findByText('批量导入的正文')).toBeInTheDocument();
    expect(query(location())).toEqual({ id: '6', title: '批量导入' });
    expect(document.querySelector('.ant-breadcrumb')!.textContent).toBe(`${M.routeHandbook}/成员管理/导入/批量导入`);
    expect(api.callsTo('/document/info').map((c) => c.query.id)).toEqual(['2', '3', '6']);
    // The menu was read once.
    expect(api.callsTo('/document/menu')).toHaveLength(1);
  });

  it('opens an image of the content in a preview', async () => {
    render(handbookHref(2, '注册账号'));
    await userEvent.click(await screen.findByAltText('截图'));
    await waitFor(() => expect(document.querySelector('.ant-image-preview')).not.toBeNull());
  });

  it('corrects a stale title in the address, and says so for a document the menu does not have', async () => {
    const first = render(handbookHref(3, '旧标题'));
    await screen.findByText('登录控制台的正文');
    await waitFor(() => expect(query(first.location())).toEqual({ id: '3', title: '登录控制台' }));
    first.unmount();

    const { api } = render(handbookHref(99, '不存在'));
    expect(await screen.findByText(M.documentNotFound)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: M.handbookHome })).toHaveAttribute('href', '/handbook');
    expect(api.callsTo('/document/info')).toHaveLength(0);
  });

  it('says there are no help documents when the menu is empty', async () => {
    mockApi({ '/document/menu': ok([]) });
    renderWithProviders(<HandbookPage />, { route: '/handbook', path: '/handbook' });
    expect(await screen.findByText(M.handbookNone)).toBeInTheDocument();
  });

  describe('at phone width', () => {
    const wide = window.matchMedia;
    afterEach(() => {
      window.matchMedia = wide;
    });

    it('keeps the tree in a drawer opened from the contents button, closed once a document is chosen', async () => {
      window.matchMedia = (q: string) => ({ ...wide(q), matches: /max-width: 767px/.test(q) });
      const { location } = render(handbookHref(2, '注册账号'));
      await screen.findByText('第一篇正文');
      expect(screen.queryByRole('navigation', { name: M.handbookContents })).toBeNull();
      await userEvent.click(screen.getByRole('button', { name: new RegExp(M.handbookContents) }));
      const drawer = await screen.findByRole('dialog');
      await userEvent.click(within(drawer).getByText('登录控制台'));
      expect(await screen.findByText('登录控制台的正文')).toBeInTheDocument();
      expect(query(location())).toEqual({ id: '3', title: '登录控制台' });
      await waitFor(() => expect(document.querySelector('.ant-drawer-open')).toBeNull());
    });
  });
});
