import { BM } from '@hublink/contract';
import type { ComponentType } from 'react';
import { detailPaging } from '../features/network/detailPaging';
import type { PageAccess } from '../session/guard';
import { lazy } from './lazyPage';
import { NOT_FOUND_PATH, normalizePath } from '../session/paths';

/**
 * The route table of spec 1 §2.1, in one place: every path, its title (document title, breadcrumb,
 * side menu label), its layout and its page. A route without a page shows the shared "coming soon"
 * placeholder with its title until the page is built. `access` says who may see a page (mirroring the
 * server's access of the calls it makes); the others get the 403 page and the page makes no call.
 */
export type LayoutKind = 'public' | 'second' | 'main';

export interface PageRoute {
  path: string;
  title: string;
  layout: LayoutKind;
  page?: ComponentType;
  /** The side-menu entry this page highlights when it is not an entry itself (details → their list). */
  menu?: string;
  /** Main accounts only, or the permission a sub-account needs; absent: every signed-in account. */
  access?: PageAccess;
  /**
   * The GETs the page makes first, as it makes them (path, query from the address), started when the
   * route matches while the page's code loads (app/router.tsx, api/prefetch). Paths, not the contract's
   * endpoints: those would bring their areas' schemas and texts to every route. One that no longer
   * matches the page's call only costs a call.
   */
  firstCalls?: (params: URLSearchParams) => FirstCall[];
}

export interface FirstCall {
  path: string;
  query?: Record<string, string | number>;
}


const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const RegisterPage = lazy(() => import('../features/auth/RegisterPage'));
const ResetPage = lazy(() => import('../features/auth/ResetPage'));
const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage'));
const ClausePage = lazy(() => import('../features/legal/ClausePage'));
const PrivacyPage = lazy(() => import('../features/legal/PrivacyPage'));
const NotFoundPage = lazy(() => import('../features/errors/NotFoundPage'));

export const ROUTES: PageRoute[] = [
  // public layout
  { path: '/clause', title: BM.routeClause, layout: 'public', page: ClausePage },
  { path: '/privacy', title: BM.routePrivacy, layout: 'public', page: PrivacyPage },
  { path: '/reset', title: BM.routeReset, layout: 'public', page: ResetPage },
  { path: '/register', title: BM.routeRegister, layout: 'public', page: RegisterPage },
  { path: '/login', title: BM.routeLogin, layout: 'public', page: LoginPage, firstCalls: (params) => (params.has('token') ? [] : [{ path: '/verify/code' }]) },
  { path: '/login/index', title: BM.routeLogin, layout: 'public', page: LoginPage, firstCalls: (params) => (params.has('token') ? [] : [{ path: '/verify/code' }]) },
  // second public layout
  { path: '/handbook', title: BM.routeHandbook, layout: 'second', page: lazy(() => import('../features/handbook/HandbookPage')) },
  { path: '/download', title: BM.routeDownload, layout: 'second', page: lazy(() => import('../features/download/DownloadPage')) },
  { path: '/validate/email', title: BM.routeValidateEmail, layout: 'second', page: lazy(() => import('../features/account/ValidateEmailPage')) },
  { path: '/self', title: BM.routeSelfService, layout: 'second', page: lazy(() => import('../features/self-service/SelfServicePage')) },
  // main layout: overview and account
  {
    path: '/dashboard',
    title: BM.routeDashboard,
    layout: 'main',
    page: DashboardPage,
    firstCalls: () => [{ path: '/account/info' }, { path: '/dashboard/overview' }],
  },
  { path: '/account', title: BM.routeAccount, layout: 'main', access: 'main', menu: '/account/info', page: lazy(() => import('../features/account/AccountPage')) },
  { path: '/account/info', title: BM.routeAccountInfo, layout: 'main', access: 'main', page: lazy(() => import('../features/account/AccountInfoPage')) },
  { path: '/account/message', title: BM.routeMessages, layout: 'main', page: lazy(() => import('../features/message/MessagePage')) },
  { path: '/account/password', title: BM.routePassword, layout: 'main', access: 'main', menu: '/account/info', page: lazy(() => import('../features/account/PasswordPage')) },
  { path: '/account/phone', title: BM.routePhone, layout: 'main', access: 'main', menu: '/account/info', page: lazy(() => import('../features/account/PhonePage')) },
  { path: '/account/email', title: BM.routeEmail, layout: 'main', access: 'main', menu: '/account/info', page: lazy(() => import('../features/account/EmailPage')) },
  { path: '/account/service', title: BM.routeServices, layout: 'main', page: lazy(() => import('../features/service/ServicePage')) },
  { path: '/account/announcements', title: BM.routeAnnouncements, layout: 'main', page: lazy(() => import('../features/announcement/AnnouncementsPage')) },
  {
    path: '/account/announcements/detail',
    title: BM.routeAnnouncementDetail,
    layout: 'main',
    menu: '/account/announcements',
    page: lazy(() => import('../features/announcement/AnnouncementDetailPage')),
  },
  // networks (document 2)
  { path: '/network/lists', title: BM.routeNetworks, layout: 'main', page: lazy(() => import('../features/network/NetworkListPage')) },
  {
    path: '/network/detail',
    title: BM.routeNetworkDetail,
    layout: 'main',
    menu: '/network/lists',
    page: lazy(() => import('../features/network/NetworkDetailPage')),
    firstCalls: (params) => (params.get('network_number') ? [{ path: '/network/info', query: detailPaging(params.get('network_number')!) }] : []),
  },
  { path: '/network/create', title: BM.routeNetworkCreate, layout: 'main', access: 'easylink.network.create', menu: '/network/lists', page: lazy(() => import('../features/network/NetworkEditPage')) },
  { path: '/network/edit', title: BM.routeNetworkEdit, layout: 'main', access: 'easylink.network.edit', menu: '/network/lists', page: lazy(() => import('../features/network/NetworkEditPage')) },
  { path: '/network/ticket_lists', title: BM.routeNetworkTickets, layout: 'main', page: lazy(() => import('../features/network-ticket/TicketListPage')) },
  {
    path: '/network/ticket_detail',
    title: BM.routeNetworkTicketDetail,
    layout: 'main',
    menu: '/network/ticket_lists',
    page: lazy(() => import('../features/network-ticket/TicketDetailPage')),
  },
  { path: '/network/pop_edit', title: BM.routePopEdit, layout: 'main', access: 'easylink.network.edit', menu: '/network/fr_lists', page: lazy(() => import('../features/pop/PopEditPage')) },
  { path: '/network/fr_lists', title: BM.routePopResources, layout: 'main', page: lazy(() => import('../features/pop/FrListPage')) },
  // own layout: a full-width form without the console's sidebar
  {
    path: '/network/ticket_create',
    title: BM.routeNetworkTicketCreate,
    layout: 'second',
    menu: '/network/ticket_lists',
    page: lazy(() => import('../features/network-ticket/TicketCreatePage')),
  },
  // SaaS devices, members (document 3)
  { path: '/saas/router', title: BM.routeSaas, layout: 'main', page: lazy(() => import('../features/saas/SaasListPage')) },
  { path: '/saas/detail', title: BM.routeSaasDetail, layout: 'main', menu: '/saas/router', page: lazy(() => import('../features/saas/SaasDetailPage')) },
  { path: '/router/lists', title: BM.routeMembers, layout: 'main', page: lazy(() => import('../features/router/RouterListPage')) },
  {
    path: '/router/detail',
    title: BM.routeMemberDetail,
    layout: 'main',
    menu: '/router/lists',
    page: lazy(() => import('../features/router/detail/RouterDetailPage')),
    firstCalls: (params) => (params.get('router_name') ? [{ path: '/router/info', query: { router_name: params.get('router_name')! } }] : []),
  },
  { path: '/router/ldap', title: BM.ldapTitle, layout: 'main', page: lazy(() => import('../features/ldap/LdapPage')) },
  { path: '/router/ldap_edit', title: BM.routeLdapEdit, layout: 'main', access: 'main', menu: '/router/ldap', page: lazy(() => import('../features/ldap/LdapEditPage')) },
  { path: '/router/auth_source', title: BM.routeAuthSource, layout: 'main', page: lazy(() => import('../features/auth-source/AuthSourcePage')) },
  { path: '/router/device_approval', title: BM.routeDeviceApproval, layout: 'main', page: lazy(() => import('../features/device-approval/DeviceApprovalPage')) },
  // monitoring, logs
  { path: '/monitor/setting', title: BM.routeMonitor, layout: 'main', access: 'monitor.view', page: lazy(() => import('../features/monitor/MonitorPage')) },
  { path: '/logs/software_login', title: BM.routeSoftwareLogins, layout: 'main', access: 'main', page: lazy(() => import('../features/logs/SoftwareLoginPage')) },
  { path: '/logs/online', title: BM.routeOnlineLogs, layout: 'main', page: lazy(() => import('../features/logs/OnlineLogPage')) },
  { path: '/logs/connect', title: BM.routeConnectLogs, layout: 'main', page: lazy(() => import('../features/logs/ConnectLogPage')) },
  // tickets
  { path: '/ticket/lists', title: BM.routeTickets, layout: 'main', page: lazy(() => import('../features/ticket/TicketListPage')) },
  { path: '/ticket/detail', title: BM.routeTicketDetail, layout: 'main', menu: '/ticket/lists', page: lazy(() => import('../features/ticket/TicketDetailPage')) },
  { path: '/ticket/create', title: BM.routeTicketCreate, layout: 'main', menu: '/ticket/lists', page: lazy(() => import('../features/ticket/TicketCreatePage')) },
  // sub-accounts
  { path: '/ram/index', title: BM.routeRam, layout: 'main', access: 'main', page: lazy(() => import('../features/ram/RamPage')) },
  { path: '/ram/role', title: BM.routeRoles, layout: 'main', access: 'main', page: lazy(() => import('../features/ram/RolePage')) },
  // personal API tokens (issue 18)
  { path: '/account/api_token', title: BM.routeApiTokens, layout: 'main', access: 'main', page: lazy(() => import('../features/api-token/ApiTokenPage')) },
  // audit trail (issue 18)
  { path: '/audit', title: BM.auditTitle, layout: 'main', access: 'main', page: lazy(() => import('../features/audit/AuditPage')) },
  // not found
  { path: NOT_FOUND_PATH, title: BM.pageNotFound, layout: 'main', page: NotFoundPage },
];

const byPath = new Map(ROUTES.map((r) => [r.path, r]));

export const routeOf = (pathname: string): PageRoute | undefined => byPath.get(normalizePath(pathname));

/** The title of a path, or undefined for a path outside the table. */
export const titleOf = (pathname: string): string | undefined => routeOf(pathname)?.title;
