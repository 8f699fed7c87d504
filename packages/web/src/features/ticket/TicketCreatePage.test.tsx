import { LIMITS } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok, refused, type Answers } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { attachment, imageResponse, stubBlobUrls } from './fixtures';
import TicketCreatePage from './TicketCreatePage';

const u = () => userEvent.setup({ delay: null, applyAccept: false });
const png = (name = 'shot.png', size = 16) => new File([new Uint8Array(size)], name, { type: 'image/png' });
const fileInput = () => document.querySelector('input[type="file"]') as HTMLInputElement;
const addButton = () => screen.queryByRole('button', { name: '上传图片' });

/** Puts text into a field as a paste: typing long Chinese text key by key is slow on a loaded machine. */
async function fill(label: string, text: string) {
  const user = u();
  await user.click(screen.getByLabelText(label));
  await user.paste(text);
}

function setup(extra: Answers = {}) {
  session.setUser(mainUser);
  let n = 0;
  const m = mockApi({
    '/ticket/upload_file': () => ok(attachment(++n), '上传成功'),
    '/ticket/file': () => imageResponse(),
    '/ticket/create': ok({ ticket_number: 'T20260105654321' }, '提交成功'),
    ...extra,
  });
  const r = renderWithProviders(<TicketCreatePage />, { route: '/ticket/create' });
  return { m, r };
}

describe('TicketCreatePage', () => {
  beforeEach(() => void stubBlobUrls());

  it('says what is missing before any call: 工单标题不能为空, 问题概述不能为空, 问题类型不能为空', async () => {
    const { m } = setup();
    expect(screen.getByPlaceholderText('请输入工单标题，2-32个字符')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('请详细描述您遇到的问题，至少10个字符')).toBeInTheDocument();
    await u().click(screen.getByRole('button', { name: /提\s*交/ }));
    await shows('工单标题不能为空');
    await shows('问题概述不能为空');
    await shows('问题类型不能为空');
    await u().type(screen.getByLabelText('工单标题'), '网');
    await u().type(screen.getByLabelText('问题概述'), '太短了');
    await shows('工单标题至少2个字符');
    await shows('问题概述至少10个字符');
    expect(m.calls).toEqual([]);
  });

  it('offers the five problem types and cuts the title at 32', async () => {
    setup();
    expect(screen.getAllByRole('radio').map((r) => r.closest('label')!.textContent)).toEqual(['平台服务', '智能组网', '智能设备', '账号问题', '其他']);
    await fill('工单标题', '网'.repeat(40));
    expect(screen.getByLabelText('工单标题')).toHaveValue('网'.repeat(LIMITS.supportTitleMax));
  });

  it('refuses other formats, images over 2 MB and more than 3 with the spec’s messages, before any call', async () => {
    const { m } = setup();
    await u().upload(fileInput(), new File(['<svg/>'], 'vector.svg', { type: 'image/svg+xml' }));
    await shows('选择的图片中包含不支持的格式');
    await u().upload(fileInput(), [png('a.png'), new File(['MZ'], 'setup.exe')]);
    await u().upload(fileInput(), png('big.png', LIMITS.uploadMaxBytes + 1));
    await shows('图片大小不能超过 2MB!');
    await u().upload(fileInput(), [png('1.png'), png('2.png'), png('3.png'), png('4.png')]);
    await shows('最多上传3张图片');
    expect(m.callsTo('/ticket/upload_file')).toEqual([]);
  });

  it('uploads up to 3 images, hides the button at 3 and shows it again when one is removed', async () => {
    const { m } = setup();
    await u().upload(fileInput(), [png('1.png'), png('2.jpg')]);
    await waitFor(() => expect(screen.getAllByRole('img', { name: /^工单图片 \d$/ })).toHaveLength(2));
    await u().upload(fileInput(), png('3.gif'));
    await waitFor(() => expect(screen.getAllByRole('img', { name: /^工单图片 \d$/ })).toHaveLength(3));
    expect(addButton()).toBeNull();
    expect(m.callsTo('/ticket/upload_file')).toHaveLength(3);
    await u().click(screen.getByRole('button', { name: '移除图片 2' }));
    await waitFor(() => expect(screen.getAllByRole('img', { name: /^工单图片 \d$/ })).toHaveLength(2));
    expect(addButton()).not.toBeNull();
  });

  it('shows the server’s refusal of an upload and keeps the images it has', async () => {
    setup({ '/ticket/upload_file': refused('选择的图片中包含不支持的格式') });
    await u().upload(fileInput(), png('fake.png'));
    await shows('选择的图片中包含不支持的格式');
    expect(screen.queryAllByRole('img', { name: /^工单图片/ })).toEqual([]);
  });

  it('submits title, overview, type and the images’ ids, then opens the new ticket', async () => {
    const { m, r } = setup();
    await fill('工单标题', '无法连接总部网络');
    await fill('问题概述', '分支机构的路由器从昨天开始无法连接到总部网络。');
    await u().click(screen.getByRole('radio', { name: '智能组网' }));
    await u().upload(fileInput(), [png('1.png'), png('2.png')]);
    await waitFor(() => expect(screen.getAllByRole('img', { name: /^工单图片 \d$/ })).toHaveLength(2));
    await u().click(screen.getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(r.location()).toBe('/ticket/detail?ticket_number=T20260105654321'));
    expect(m.callsTo('/ticket/create')[0]!.body).toEqual({
      title: '无法连接总部网络',
      content: '分支机构的路由器从昨天开始无法连接到总部网络。',
      type: 2,
      file_ids: [attachment(1).file_id, attachment(2).file_id],
    });
  });

  it('goes back to the list', async () => {
    const { r } = setup();
    await u().click(screen.getByRole('button', { name: /返\s*回/ }));
    expect(r.location()).toBe('/ticket/lists');
  });
});
