import { M } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok, type Answers } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { attachment, imageResponse, stubBlobUrls, ticketDetail } from './fixtures';
import TicketDetailPage from './TicketDetailPage';

const u = () => userEvent.setup({ delay: null, applyAccept: false });
const NUMBER = 'T20260105123456';

const answered = ticketDetail({
  ticket_status: 2,
  dialogue: [
    { reply_type: 'tenant', reply_name: '小林', reply_time: '2026-01-05 10:00:00', dialogue_content: '补充：重启后仍然不行', images: [] },
    { reply_type: 'service', reply_name: '客服小刘', reply_time: '2026-01-05 11:00:00', dialogue_content: '您好，请检查WAN口。\n谢谢', images: [attachment(2), attachment(3)] },
  ],
});

function setup(detail = answered, extra: Answers = {}) {
  session.setUser(mainUser);
  const m = mockApi({
    '/ticket/info': ok(detail),
    '/ticket/file': () => imageResponse(),
    '/ticket/reply': ok(null, M.replied),
    '/ticket/appraise': ok(null, M.commented),
    '/ticket/delete': ok(null, M.deleted),
    '/ticket/upload_file': ok(attachment(7), '上传成功'),
    ...extra,
  });
  const r = renderWithProviders(<TicketDetailPage />, { route: `/ticket/detail?ticket_number=${NUMBER}`, path: '/ticket/detail' });
  return { m, r };
}

describe('TicketDetailPage', () => {
  beforeEach(() => void stubBlobUrls());

  it('shows the ticket, its images and the dialogue with the adviser’s images', async () => {
    const { m } = setup();
    await shows(NUMBER);
    expect(m.callsTo('/ticket/info')[0]!.query).toEqual({ ticket_number: NUMBER });
    expect(screen.getByText('智能组网')).toBeInTheDocument();
    expect(screen.getByText('已回复')).toBeInTheDocument();
    expect(screen.getByText(/The branch router cannot reach HQ/)).toBeInTheDocument();
    const dialogue = screen.getByRole('list', { name: '沟通记录' });
    const entries = within(dialogue).getAllByRole('listitem');
    expect(entries.map((e) => within(e).getByText(/^(小林|客服小刘)$/).textContent)).toEqual(['小林', '客服小刘']);
    expect(within(entries[1]!).getByText('客服')).toBeInTheDocument();
    expect(within(entries[1]!).getByText(/您好，请检查WAN口。/)).toBeInTheDocument();
    await waitFor(() => expect(within(entries[1]!).getAllByRole('img', { name: /^工单图片/ }).map((i) => i.getAttribute('src'))).toEqual([expect.stringMatching(/^blob:/), expect.stringMatching(/^blob:/)]));
    await waitFor(() => expect(screen.getAllByRole('img', { name: /^工单图片/ })).toHaveLength(3));
    expect(m.callsTo('/ticket/file').map((c) => c.query.file_id)).toEqual(expect.arrayContaining([attachment(1).file_id, attachment(2).file_id, attachment(3).file_id]));
  });

  it('opens the preview when an image is clicked', async () => {
    setup();
    await waitFor(() => expect(screen.getAllByRole('img', { name: /^工单图片/ })).toHaveLength(3));
    await u().click(screen.getAllByRole('img', { name: /^工单图片/ })[1]!);
    await waitFor(() => expect(document.querySelector('.ant-image-preview')).not.toBeNull());
  });

  it('replies: 回复内容不能为空 before any call, then the content and images, and the form clears', async () => {
    const { m } = setup();
    await shows(NUMBER);
    await u().click(screen.getByRole('button', { name: /^回\s*复$/ }));
    await shows('回复内容不能为空');
    expect(m.callsTo('/ticket/reply')).toEqual([]);
    await u().click(screen.getByLabelText('回复'));
    await u().paste('已检查，仍然不行');
    await u().upload(document.querySelector('input[type="file"]') as HTMLInputElement, new File([new Uint8Array(8)], 'wan.png', { type: 'image/png' }));
    await waitFor(() => expect(m.callsTo('/ticket/upload_file')).toHaveLength(1));
    await u().click(screen.getByRole('button', { name: /^回\s*复$/ }));
    await waitFor(() => expect(m.callsTo('/ticket/reply')[0]!.body).toEqual({ ticket_number: NUMBER, content: '已检查，仍然不行', file_ids: [attachment(7).file_id] }));
    await shows('回复成功');
    await waitFor(() => expect(screen.getByLabelText('回复')).toHaveValue(''));
    await waitFor(() => expect(m.callsTo('/ticket/info').length).toBeGreaterThan(1));
  });

  it('rates: 评分不能为空 without stars, then grade and comment', async () => {
    const { m } = setup();
    await shows(NUMBER);
    await u().click(screen.getByRole('button', { name: '提交评价' }));
    await shows('评分不能为空');
    expect(m.callsTo('/ticket/appraise')).toEqual([]);
    await u().click(screen.getAllByRole('radio')[3]!);
    await u().click(screen.getByLabelText('评价内容'));
    await u().paste('响应很快');
    await u().click(screen.getByRole('button', { name: '提交评价' }));
    await waitFor(() => expect(m.callsTo('/ticket/appraise')[0]!.body).toEqual({ ticket_number: NUMBER, grade: 4, content: '响应很快' }));
    await shows('评论成功');
  });

  it('offers no rating before an adviser answered (客服回复后才能评价)', async () => {
    setup(ticketDetail({ ticket_status: 1, dialogue: [{ reply_type: 'tenant', reply_name: '小林', reply_time: '2026-01-05 10:00:00', dialogue_content: '还在吗', images: [] }] }));
    await shows('客服回复后才能评价');
    expect(screen.queryByRole('button', { name: '提交评价' })).toBeNull();
    expect(screen.queryAllByRole('radio')).toEqual([]);
    // The reply box stays: the tenant may still write.
    expect(screen.getByLabelText('回复')).toBeInTheDocument();
  });

  it('once rated: the stars disabled, the comment read only, no reply and no rating form', async () => {
    setup(ticketDetail({ ticket_status: 3, appraise: { grade: 4, content: '响应很快', create_time: '2026-01-06 09:00:00' } }));
    await shows('评价时间：2026-01-06 09:00:00');
    expect(screen.getByLabelText('评价内容')).toHaveAttribute('readonly');
    expect(screen.getByText('已关闭')).toBeInTheDocument();
    const stars = screen.getAllByRole('radio');
    expect(stars.map((s) => s.getAttribute('aria-checked'))).toEqual(['true', 'true', 'true', 'true', 'false']);
    expect(stars[0]!.closest('.ant-rate')).toHaveClass('ant-rate-disabled');
    await u().click(stars[4]!);
    expect(stars[4]).toHaveAttribute('aria-checked', 'false');
    expect(screen.queryByRole('button', { name: '提交评价' })).toBeNull();
    expect(screen.queryByLabelText('回复')).toBeNull();
    expect(screen.queryByRole('button', { name: /^回\s*复$/ })).toBeNull();
  });

  it('hides the reply box of a ticket the operator closed but still offers the rating', async () => {
    setup(ticketDetail({ ticket_status: 3 }));
    await shows(NUMBER);
    expect(screen.queryByLabelText('回复')).toBeNull();
    expect(screen.getByRole('button', { name: '提交评价' })).toBeInTheDocument();
  });

  it('deletes after 是否确定删除? and goes to the list; no delete for a ticket the caller may not delete', async () => {
    const { m, r } = setup();
    await shows(NUMBER);
    await u().click(screen.getByRole('button', { name: /^删\s*除$/ }));
    await shows('是否确定删除?');
    await u().click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(r.location()).toBe('/ticket/lists'));
    expect(m.callsTo('/ticket/delete')[0]!.body).toEqual({ ticket_number: NUMBER });
  });

  it('offers no delete to whoever may not, and goes back to the list', async () => {
    const { r } = setup(ticketDetail({ deletable: false }));
    await shows(NUMBER);
    expect(screen.queryByRole('button', { name: /^删\s*除$/ })).toBeNull();
    await u().click(screen.getByRole('button', { name: /返\s*回/ }));
    expect(r.location()).toBe('/ticket/lists');
  });
});
