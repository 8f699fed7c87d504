import { type Diagnosis, routerMessages } from '@hublink/contract';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { DiagnosisView, type SessionWords } from './DiagnosisView';

/** The words the router pages give a software client's session (features/router's memberWording). */
const softwareSession: SessionWords = { label: routerMessages.memberColOnline, on: routerMessages.memberOnline, off: routerMessages.memberOffline };

const answer = (router_name: string): Diagnosis => ({
  router_name,
  cause: 'healthy',
  message: '一切正常',
  online: 1,
  last_seen: '2026-01-02 10:00:00',
  remote_ip: '203.0.113.9',
  close_code: 0,
  close_reason: '',
  failure_time: '',
  failure_ip: '',
  networks: [],
});

describe('诊断: the member session as its kind says it', () => {
  beforeEach(() => {
    session.setToken('tok', 3600);
    session.setUser(mainUser);
  });

  it('a software client is 登录状态 已登录, not a router’s 连接状态 已连接', async () => {
    mockApi({ '/router/diagnosis': ok(answer('alice01')) });
    renderWithProviders(<DiagnosisView routerName="alice01" session={softwareSession} />);
    expect(await screen.findByText(routerMessages.memberOnline)).toBeInTheDocument();
    expect(screen.getByText(routerMessages.memberColOnline)).toBeInTheDocument();
    expect(screen.queryByText(routerMessages.routerConnected)).toBeNull();
    expect(screen.queryByText(routerMessages.routerInfoOnline)).toBeNull();
  });

  it('a router keeps 连接状态 已连接', async () => {
    mockApi({ '/router/diagnosis': ok(answer('gw-beijing')) });
    renderWithProviders(<DiagnosisView routerName="gw-beijing" />);
    expect(await screen.findByText(routerMessages.routerConnected)).toBeInTheDocument();
    expect(screen.getByText(routerMessages.routerInfoOnline)).toBeInTheDocument();
  });
});
