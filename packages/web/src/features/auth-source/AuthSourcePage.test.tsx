import { fmt, M } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../api/session';
import { mainUser, ramUser } from '../../test/sessionFixtures';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import AuthSourcePage from './AuthSourcePage';
import { codeAnswer, rows } from './testData';

const featured = { ...mainUser, config: { software_auth_source: 1 } };
const okButton = () => screen.getByRole('button', { name: /确\s*定|OK/ });

function setup(list = rows, user = featured) {
  session.setUser(user);
  const m = mockApi({
    '/auth_source/code': ok(codeAnswer),
    '/auth_source/lists': (c) => ({ code: 200, msg: 'success', data: c.query.search ? [] : list, count: c.query.search ? 0 : list.length }),
    '/auth_source/enable': ok(null, M.authSourceEnabled),
    '/auth_source/disable': ok(null, M.authSourceDisabledDone),
    '/auth_source/delete': ok(null, M.deleted),
  });
  renderWithProviders(<AuthSourcePage />, { route: '/router/auth_source' });
  return m;
}

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;

let writeText: ReturnType<typeof vi.fn>;
beforeEach(() => {
  writeText = vi.fn().mockResolvedValue(undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(() => {
  Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
});

describe('AuthSourcePage (/router/auth_source)', () => {
  it('tells a tenant without the feature so, and calls nothing', async () => {
    const m = setup(rows, mainUser);
    await shows(M.authSourceNotEnabled);
    expect(m.calls).toEqual([]);
  });

  it('explains what a source is when there is none, with the ID code and the create button', async () => {
    setup([]);
    await shows(M.authSourceEmptyTitle);
    expect(screen.getByText(M.authSourceEmptyText)).toBeInTheDocument();
    await shows('K7M2QX9P');
    // The members' self-service page with the ID code offers these sources.
    expect(screen.getByText(`${window.location.origin}/self?code=K7M2QX9P`)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: new RegExp(M.authSourceCreate) }));
    await shows(M.authSourceFieldType);
    expect(within(screen.getByRole('dialog')).getByRole('textbox', { name: M.authSourceCodeLabel })).toHaveValue('K7M2QX9P');
  });

  it('lists the sources with type and status, and copies the ID code', async () => {
    setup();
    const wechat = await rowOf('HQ WeCom');
    expect(within(wechat).getByText(M.authSourceTypeWechat)).toBeInTheDocument();
    expect(within(wechat).getByText(M.authSourceStatusOn)).toBeInTheDocument();
    expect(within(await rowOf('DingTalk SSO')).getByText(M.authSourceStatusOff)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: `${M.authSourceActionCopy}${M.authSourceCodeLabel}` }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('K7M2QX9P'));
    await shows(M.authSourceCopied);
  });

  it('copies what a member needs to sign in with a source', async () => {
    setup();
    await userEvent.click(within(await rowOf('HQ WeCom')).getByRole('button', { name: M.authSourceActionCopy }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(fmt(M.authSourceCopyText, { code: 'K7M2QX9P', name: 'HQ WeCom', type: M.authSourceTypeWechat })));
    await shows(M.authSourceCopied);
  });

  it('says so when the browser refuses the clipboard', async () => {
    writeText.mockRejectedValue(new Error('denied'));
    setup();
    await userEvent.click(within(await rowOf('HQ WeCom')).getByRole('button', { name: M.authSourceActionCopy }));
    await shows(M.authSourceCopyFailed);
  });

  it('disables, enables and deletes only after each is confirmed', async () => {
    const m = setup();
    await userEvent.click(within(await rowOf('HQ WeCom')).getByRole('button', { name: M.authSourceActionDisable }));
    await shows(M.authSourceConfirmDisable);
    expect(m.callsTo('/auth_source/disable')).toHaveLength(0);
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/auth_source/disable')).toEqual([expect.objectContaining({ body: { id: 2 } })]));
    await shows(M.authSourceDisabledDone);

    await userEvent.click(within(await rowOf('DingTalk SSO')).getByRole('button', { name: M.authSourceActionEnable }));
    await shows(M.authSourceConfirmEnable);
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/auth_source/enable')).toEqual([expect.objectContaining({ body: { id: 3 } })]));

    await userEvent.click(within(await rowOf('DingTalk SSO')).getByRole('button', { name: M.authSourceActionDelete }));
    await shows(M.authSourceConfirmDelete);
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/auth_source/delete')).toEqual([expect.objectContaining({ body: { id: 3 } })]));
    // The list reloads after each change.
    await waitFor(() => expect(m.callsTo('/auth_source/lists').length).toBeGreaterThan(3));
  });

  it('offers a sub-account the list and the copy action only', async () => {
    setup(rows, { ...ramUser, config: { software_auth_source: 1 } });
    const row = await rowOf('HQ WeCom');
    expect(within(row).getByRole('button', { name: M.authSourceActionCopy })).toBeInTheDocument();
    for (const action of [M.authSourceActionEdit, M.authSourceActionDisable, M.authSourceActionDelete]) {
      expect(within(row).queryByRole('button', { name: action })).toBeNull();
    }
    expect(screen.queryByRole('button', { name: new RegExp(M.authSourceCreate) })).toBeNull();
  });
});
