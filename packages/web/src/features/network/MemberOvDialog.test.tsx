import { M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { member } from '../../test/networkFixtures';
import { MemberOvDialog } from './MemberOvDialog';
import { MemberTable } from './MemberTable';

const okButton = () => screen.getAllByText(/确\s*定|OK/).at(-1)!.closest('button')!;
const area = (id: number, name: string, region: string) => ({ id, name, region, bandwidth: 100 });
const TWO = [area(1, '华南', 'south'), area(2, '华北', 'north')];
const THREE = [...TWO, area(3, '华东', 'east')];

function setup(areas = THREE, ov = { main: 0, backup: 0, main_name: '', backup_name: '', priority: 3 }) {
  const m = mockApi({ '/network/member_ov': ok(null, '保存成功'), '/network/preview': ok({ members: [], member_count: 0, reach: [], reach_count: 0, viewer: null }) });
  const onClose = vi.fn();
  renderWithProviders(<MemberOvDialog networkNumber="N1" member={member({ router_name: 'R2', ov_id: ov })} areas={areas} onClose={onClose} />);
  return { m, onClose };
}

async function pick(label: string, name: string) {
  await userEvent.click(screen.getByLabelText(label));
  const options = await screen.findAllByTitle(name);
  await userEvent.click(options.at(-1)!);
}

describe('MemberOvDialog (POP区域)', () => {
  it('needs a main area, offers the backup only once a main is chosen, and refuses the same area twice', async () => {
    const { m } = setup();
    await screen.findByLabelText(M.popOvMain);
    expect(screen.queryByLabelText(M.popOvBackup)).not.toBeInTheDocument();
    await userEvent.click(okButton());
    await shows(M.popAreaMainRequired);

    await pick(M.popOvMain, '华北');
    await pick(M.popOvBackup, '华北');
    await userEvent.click(okButton());
    await shows(M.popAreaSame);
    expect(m.callsTo('/network/member_ov')).toHaveLength(0);

    await pick(M.popOvBackup, '华东');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/member_ov')).toHaveLength(1));
    expect(m.callsTo('/network/member_ov')[0]!.body).toEqual({ network_number: 'N1', router_name: 'R2', ov_id_main: 2, ov_id_backup: 3 });
  });

  it('offers no backup with two areas or fewer', async () => {
    const { m } = setup(TWO);
    await pick(M.popOvMain, '华南');
    expect(screen.queryByLabelText(M.popOvBackup)).not.toBeInTheDocument();
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/member_ov')).toHaveLength(1));
    expect(m.callsTo('/network/member_ov')[0]!.body).toEqual({ network_number: 'N1', router_name: 'R2', ov_id_main: 1, ov_id_backup: 0 });
  });

  it('previews a changed choice, not the saved one', async () => {
    const { m } = setup(THREE, { main: 1, backup: 3, main_name: '华南', backup_name: '华东', priority: 3 });
    expect(await screen.findByTitle('华东')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: M.previewTitle })).toBeNull();
    await pick(M.popOvBackup, '华北');
    await waitFor(() => expect(m.callsTo('/network/preview')).toHaveLength(1));
    expect(m.callsTo('/network/preview')[0]!.body).toEqual({ network_number: 'N1', path: '/network/member_ov', body: { router_name: 'R2', ov_id_main: 1, ov_id_backup: 2 } });
  });

  it('reports an unchanged choice saved without a call', async () => {
    const { m, onClose } = setup(THREE, { main: 1, backup: 3, main_name: '华南', backup_name: '华东', priority: 3 });
    expect(await screen.findByTitle('华东')).toBeInTheDocument();
    await userEvent.click(okButton());
    await shows(M.saved);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(m.callsTo('/network/member_ov')).toHaveLength(0);
  });
});

describe('the member table’s POP area edit', () => {
  async function table(areas: typeof THREE, canSet = true) {
    session.setUser(mainUser);
    const m = mockApi({ '/network_fr/ov': ok(areas), '/network/member_ov': ok(null, '保存成功') });
    const r = renderWithProviders(<MemberTable networkNumber="N1" members={[member({ router_name: 'R2' })]} centers={[]} total={1} page={1} onPage={() => {}} canEdit={canSet} canSet={canSet} />);
    await screen.findByText('R2');
    /** The areas have arrived (and drawn what they draw). */
    const arrived = () => waitFor(() => expect(r.queryClient.getQueryState(['/network_fr/ov', { network_number: 'N1' }])?.status).toBe('success'));
    return { m, arrived };
  }

  it('is offered when the network’s resource has areas, and opens the dialog for that member', async () => {
    const { m } = await table(THREE);
    await userEvent.click(await screen.findByLabelText(`${M.popOvEdit} R2`));
    await screen.findByLabelText(M.popOvMain);
    expect(m.callsTo('/network_fr/ov')[0]!.query).toEqual({ network_number: 'N1' });
  });

  it('is not offered without areas', async () => {
    const { arrived } = await table([]);
    await arrived();
    expect(screen.queryByLabelText(`${M.popOvEdit} R2`)).not.toBeInTheDocument();
  });

  it('asks nothing of a user who may not change settings', async () => {
    const { m } = await table(THREE, false);
    expect(screen.queryByLabelText(`${M.popOvEdit} R2`)).not.toBeInTheDocument();
    expect(m.callsTo('/network_fr/ov')).toHaveLength(0);
  });
});
