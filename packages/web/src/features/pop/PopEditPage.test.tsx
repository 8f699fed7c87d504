import { M } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { detail, member } from '../../test/networkFixtures';
import PopEditPage from './PopEditPage';

const ov = (main: number, main_name: string) => ({ main, backup: 0, main_name, backup_name: '', priority: 3 });
const AREAS = [
  { id: 11, name: '华南', region: 'south', bandwidth: 100 },
  { id: 12, name: '华北', region: 'north', bandwidth: 100 },
];

function setup(fr = true) {
  session.setUser(mainUser);
  const members = [member({ router_name: 'R1', member_type: 'center', ov_id: ov(11, '华南') }), member({ router_name: 'R2' }), member({ router_name: 'R3' })];
  const m = mockApi({
    '/network/info': ok(detail({ member: members.slice(0, 1), network_name: '华东总部', network_fr: fr ? { network_fr_id: 5, shortname: '华南·华北 100M' } : null })),
    '/network/member': ok(members),
    '/network_fr/ov': ok(fr ? AREAS : []),
    '/network/member_ov': ok(null, '保存成功'),
    '/network/pop_name': ok(null, '修改成功'),
  });
  renderWithProviders(<PopEditPage />, { route: '/network/pop_edit?network_number=N1' });
  return m;
}

/** antd spaces the two characters of a button's label. */
const saveButton = () => screen.getByRole('button', { name: new RegExp(M.popEditSave.split('').join('\\s*')) });
const box = (name: string) => screen.getByRole('region', { name });

describe('PopEditPage (/network/pop_edit)', () => {
  it('places members by their main area, with a column per region and no moves where the resource has no area', async () => {
    setup();
    await shows(M.popEditPool);
    expect(within(box('华南 100Mbps')).getByText('R1')).toBeInTheDocument();
    expect(within(box(M.popEditPool)).getByText('R2')).toBeInTheDocument();
    expect(within(box(M.popEditPool)).getByText('R3')).toBeInTheDocument();
    expect(within(box('华东')).getByText(M.popEditNoArea)).toBeInTheDocument();
    expect(within(box('国际')).getByText(M.popEditNoArea)).toBeInTheDocument();
    expect(screen.getByLabelText(M.popEditNetworkName)).toHaveAttribute('maxlength', '32');
  });

  it('moves members in and out and saves only the changes with network/member_ov', async () => {
    const m = setup();
    await shows(M.popEditPool);
    await userEvent.click(within(box(M.popEditPool)).getByLabelText('R2'));
    await userEvent.click(screen.getByRole('button', { name: `${M.popEditMoveIn} 华北` }));
    expect(within(box('华北 100Mbps')).getByText('R2')).toBeInTheDocument();
    await userEvent.click(within(box('华南 100Mbps')).getByLabelText('R1'));
    await userEvent.click(screen.getByRole('button', { name: `${M.popEditMoveOut} 华南` }));
    expect(within(box(M.popEditPool)).getByText('R1')).toBeInTheDocument();

    await userEvent.click(saveButton());
    await waitFor(() => expect(m.callsTo('/network/member_ov')).toHaveLength(2));
    expect(m.callsTo('/network/member_ov').map((c) => c.body)).toEqual([
      { network_number: 'N1', router_name: 'R1', ov_id_main: 0, ov_id_backup: 0 },
      { network_number: 'N1', router_name: 'R2', ov_id_main: 12, ov_id_backup: 0 },
    ]);
    await shows(M.saved);
  });

  it('reports an unchanged placement saved without a call', async () => {
    const m = setup();
    await shows(M.popEditPool);
    await userEvent.click(saveButton());
    await shows(M.saved);
    expect(m.callsTo('/network/member_ov')).toHaveLength(0);
    expect(m.callsTo('/network/pop_name')).toHaveLength(0);
  });

  it('renames the network here, up to 32 characters; an empty name stops the save', async () => {
    const m = setup();
    await shows(M.popEditPool);
    const name = screen.getByLabelText(M.popEditNetworkName);
    expect(name).toHaveValue('华东总部');
    await userEvent.clear(name);
    await userEvent.click(saveButton());
    await shows(M.networkNameRequired);
    expect(m.callsTo('/network/pop_name')).toHaveLength(0);
    const long = '长'.repeat(30);
    await userEvent.type(name, ` ${long} `);
    await userEvent.click(saveButton());
    await waitFor(() => expect(m.callsTo('/network/pop_name')).toHaveLength(1));
    expect(m.callsTo('/network/pop_name')[0]!.body).toEqual({ network_number: 'N1', network_name: long });
    await shows(M.saved);
  });

  it('says the network has no POP resource', async () => {
    setup(false);
    await shows(M.popNetworkNoFr);
    expect(screen.queryByText(M.popEditPool)).not.toBeInTheDocument();
  });
});
