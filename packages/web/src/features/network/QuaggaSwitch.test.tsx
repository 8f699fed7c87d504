import { M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok } from '../../test/mockApi';
import { member } from '../../test/networkFixtures';
import { renderWithProviders, shows } from '../../test/render';
import { QuaggaSwitch } from './QuaggaSwitch';

describe('QuaggaSwitch', () => {
  it('previews the toggle in its confirmation, once it opens', async () => {
    const m = mockApi({ '/network/preview': ok({ members: [{ router_name: 'R2', change: 'changed' }], member_count: 1, reach: [], reach_count: 0, viewer: null }) });
    renderWithProviders(<QuaggaSwitch networkNumber="N1" member={member({ router_name: 'R2', quagga: 1 })} />);
    expect(screen.queryByRole('region', { name: M.previewTitle })).toBeNull();
    await userEvent.click(screen.getByLabelText('R2的动态路由'));
    await shows('是否关闭R2的动态路由?');
    await waitFor(() => expect(m.callsTo('/network/preview')).toHaveLength(1));
    expect(m.callsTo('/network/preview')[0]!.body).toEqual({ network_number: 'N1', path: '/network/quagga', body: { router_name: 'R2', enable: 0 } });
    await shows('1 个成员的配置将改变');
  });
});
