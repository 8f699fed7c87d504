import { CODE, fmt, M, type NetworkDrift, setDns } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, refused, type Answers, type EnvelopeOf } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { useNetworkMutation } from './api';
import { DriftNotice } from './DriftNotice';

const drifted: NetworkDrift = {
  applied_version: 3,
  applied_time: '2026-11-20 10:00:00',
  applied_by: '主账号 alice',
  changes: [
    { key: 'network.dns', label: M.histFieldDns, a: '192.0.2.53', b: '192.0.2.54', changed: true },
    { key: 'network.network_name', label: M.histFieldName, a: '华东生产网', b: '', changed: true },
  ],
  versions: [
    { version: 4, create_time: '2026-11-21 09:30:00', who: '子账号 bob@acme', summary: M.histFieldDns },
    { version: 5, create_time: '2026-11-21 11:00:00', who: '主账号 alice', summary: M.histFieldName },
  ],
};
const inStep: NetworkDrift = { ...drifted, changes: [], versions: [] };

function setup(answers: Answers) {
  const m = mockApi(answers);
  const r = renderWithProviders(<DriftNotice networkNumber="N1" />);
  return { m, r };
}

/** The innermost element whose whole text is `text` (the notice keeps its times in spans of their own). */
const sentence = (text: string) => (_: string, el: Element | null) => el?.textContent === text && ![...el.children].some((c) => c.textContent === text);

/** Once the drift call has answered (what a notice that shows nothing is waited on). */
const answered = (r: ReturnType<typeof setup>['r']) =>
  waitFor(() => expect(r.queryClient.getQueryState(['/network/drift', { network_number: 'N1' }])?.status).toBe('success'));

describe('DriftNotice', () => {
  it('warns with the applied version, who and when, each changed field (applied → now) and the versions since', async () => {
    const { m } = setup({ '/network/drift': ok(drifted) });
    await shows(M.codeDriftTitle);
    expect(m.callsTo('/network/drift')[0]!.query).toEqual({ network_number: 'N1' });
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText(sentence(fmt(M.codeDriftText, { version: 3, who: '主账号 alice', time: '2026-11-20 10:00:00' })))).toBeInTheDocument();

    const changes = within(within(alert).getByRole('list', { name: M.codeDriftTitle })).getAllByRole('listitem');
    expect(changes.map((li) => li.textContent)).toEqual([`${M.histFieldDns}192.0.2.53 → 192.0.2.54`, `${M.histFieldName}华东生产网 → —`]);

    const since = within(alert).getByRole('list', { name: M.codeDriftSince });
    expect(within(since).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      fmt(M.codeDriftBy, { who: '子账号 bob@acme', time: '2026-11-21 09:30:00', summary: M.histFieldDns }),
      fmt(M.codeDriftBy, { who: '主账号 alice', time: '2026-11-21 11:00:00', summary: M.histFieldName }),
    ]);
    expect(screen.queryByText(M.codeDriftLoadFailed)).not.toBeInTheDocument();
  });

  it('says quietly that the network matches its document when nothing changed', async () => {
    setup({ '/network/drift': ok(inStep) });
    await shows(fmt(M.codeDriftNone, { version: 3 }));
    expect(screen.queryByText(M.codeDriftTitle)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows nothing for a network no document was applied to, nor while the answer is on its way', async () => {
    let answer: (v: EnvelopeOf<'/network/drift'>) => void = () => {};
    const { r } = setup({ '/network/drift': () => new Promise<EnvelopeOf<'/network/drift'>>((resolve) => (answer = resolve)) });
    await waitFor(() => expect(r.queryClient.getQueryState(['/network/drift', { network_number: 'N1' }])?.fetchStatus).toBe('fetching'));
    expect(r.container.querySelector('.ant-alert, .ant-skeleton, .ant-spin')).toBeNull();
    answer(ok(null));
    await answered(r);
    expect(r.container.querySelector('.ant-alert')).toBeNull();
    expect(screen.queryByText(M.codeDriftLoadFailed)).not.toBeInTheDocument();
  });

  it('says it could not check, quietly (no toast), and reads again on retry', async () => {
    const { m } = setup({ '/network/drift': refused('服务器错误', CODE.invalid) as never });
    await shows(M.codeDriftLoadFailed);
    expect(screen.queryByText('服务器错误')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    m.answer('/network/drift', ok(drifted));
    await userEvent.click(screen.getByRole('button', { name: M.histRetry }));
    await shows(M.codeDriftTitle);
    expect(m.callsTo('/network/drift')).toHaveLength(2);
    expect(screen.queryByText(M.codeDriftLoadFailed)).not.toBeInTheDocument();
  });

  it('reads the drift again after a save in any of the network dialogs', async () => {
    function SaveDns() {
      const save = useNetworkMutation(setDns);
      return <button onClick={() => void save.mutateAsync({ network_number: 'N1', dns: ['192.0.2.54'] })}>save</button>;
    }
    const m = mockApi({ '/network/drift': ok(inStep), '/network/dns': ok(null, '保存成功') });
    renderWithProviders(
      <>
        <SaveDns />
        <DriftNotice networkNumber="N1" />
      </>,
    );
    await shows(fmt(M.codeDriftNone, { version: 3 }));
    m.answer('/network/drift', ok(drifted));
    await userEvent.click(screen.getByRole('button', { name: 'save' }));
    await shows(M.codeDriftTitle);
    expect(m.callsTo('/network/drift')).toHaveLength(2);
    expect(screen.queryByText(fmt(M.codeDriftNone, { version: 3 }))).not.toBeInTheDocument();
  });
});
