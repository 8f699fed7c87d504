import { CODE, M, type Envelope, type ServiceItem } from '@hublink/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, type ApiCall } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import ServicePage from './ServicePage';

const services = (n: number, from = 1): ServiceItem[] =>
  Array.from({ length: n }, (_, i) => ({
    id: from + i,
    service_name: `成员扩容包${from + i}`,
    quantity: (from + i) * 10,
    start_time: '2024-01-01 00:00:00',
    expired_time: '2025-01-01 00:00:00',
  }));
const page = (data: ServiceItem[], count: number): Envelope<ServiceItem[]> => ({ code: CODE.ok, msg: 'success', data, count });

describe('ServicePage', () => {
  it('shows service_name, quantity, start_time and expired_time', async () => {
    mockApi({ '/account/service': page(services(2), 2) });
    renderWithProviders(<ServicePage />, { route: '/account/service' });
    const row = (await screen.findByText('成员扩容包1')).closest('tr')!;
    expect(within(row).getByText('10')).toBeInTheDocument();
    expect(within(row).getByText('2024-01-01 00:00:00')).toBeInTheDocument();
    expect(within(row).getByText('2025-01-01 00:00:00')).toBeInTheDocument();
    for (const h of [M.serviceColName, M.serviceColQuantity, M.serviceColStart, M.serviceColExpired]) {
      expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
  });

  it('pages 10 at a time', async () => {
    const m = mockApi({ '/account/service': (c: ApiCall) => (c.query.page === '2' ? page(services(1, 11), 11) : page(services(10), 11)) });
    const { container } = renderWithProviders(<ServicePage />, { route: '/account/service' });
    await screen.findByText('成员扩容包1');
    expect(m.callsTo('/account/service')[0]!.query).toEqual({ page: '1' });
    await userEvent.click(within(container.querySelector('.ant-pagination') as HTMLElement).getByTitle('2'));
    expect(await screen.findByText('成员扩容包11')).toBeInTheDocument();
  });

  it('says 好像没有什么东西哦！ without services', async () => {
    mockApi({ '/account/service': page([], 0) });
    renderWithProviders(<ServicePage />, { route: '/account/service' });
    expect(await screen.findByText(M.empty)).toBeInTheDocument();
  });
});
