import { lazy, type ComponentType } from 'react';
import { NOT_FOUND_PATH, normalizePath } from './paths';

/**
 * The route table of spec 1 §2.1, in one place: every path, its title (document title, breadcrumb,
 * side menu label), its layout and its page. A route without a page shows the shared "coming soon"
 * placeholder with its title until the page is built.
 */
export type LayoutKind = 'public' | 'second' | 'main';

export interface PageRoute {
  path: string;
  title: string;
  layout: LayoutKind;
  page?: ComponentType;
  /** The side-menu entry this page highlights when it is not an entry itself (details → their list). */
  menu?: string;
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
  { path: '/clause', title: '服务条款', layout: 'public', page: ClausePage },
  { path: '/privacy', title: '隐私政策', layout: 'public', page: PrivacyPage },
  { path: '/reset', title: '找回密码', layout: 'public', page: ResetPage },
  { path: '/register', title: '注册账号', layout: 'public', page: RegisterPage },
  { path: '/login', title: '登录', layout: 'public', page: LoginPage },
  { path: '/login/index', title: '登录', layout: 'public', page: LoginPage },
  // second public layout
  { path: '/handbook', title: '帮助文档', layout: 'second' },
  { path: '/download', title: '下载客户端', layout: 'second' },
  { path: '/validate/email', title: '邮箱验证', layout: 'second', page: lazy(() => import('../features/account/ValidateEmailPage')) },
  // main layout: overview and account
  { path: '/dashboard', title: '概览', layout: 'main', page: DashboardPage },
  { path: '/account', title: '账号安全', layout: 'main', menu: '/account/info', page: lazy(() => import('../features/account/AccountPage')) },
  { path: '/account/info', title: '账号信息', layout: 'main', page: lazy(() => import('../features/account/AccountInfoPage')) },
  { path: '/account/message', title: '消息中心', layout: 'main', page: lazy(() => import('../features/message/MessagePage')) },
  { path: '/account/password', title: '修改密码', layout: 'main', menu: '/account/info', page: lazy(() => import('../features/account/PasswordPage')) },
  { path: '/account/phone', title: '修改手机', layout: 'main', menu: '/account/info', page: lazy(() => import('../features/account/PhonePage')) },
  { path: '/account/email', title: '修改邮箱', layout: 'main', menu: '/account/info', page: lazy(() => import('../features/account/EmailPage')) },
  { path: '/account/service', title: '我的服务', layout: 'main', page: lazy(() => import('../features/service/ServicePage')) },
  { path: '/account/announcements', title: '公告', layout: 'main', page: lazy(() => import('../features/announcement/AnnouncementsPage')) },
  {
    path: '/account/announcements/detail',
    title: '公告详情',
    layout: 'main',
    menu: '/account/announcements',
    page: lazy(() => import('../features/announcement/AnnouncementDetailPage')),
  },
  // networks (document 2)
  { path: '/network/lists', title: '网络列表', layout: 'main', page: lazy(() => import('../features/network/NetworkListPage')) },
  { path: '/network/detail', title: '网络详情', layout: 'main', menu: '/network/lists', page: lazy(() => import('../features/network/NetworkDetailPage')) },
  { path: '/network/create', title: '创建网络', layout: 'main', menu: '/network/lists', page: lazy(() => import('../features/network/NetworkEditPage')) },
  { path: '/network/edit', title: '管理成员', layout: 'main', menu: '/network/lists', page: lazy(() => import('../features/network/NetworkEditPage')) },
  { path: '/network/ticket_lists', title: '网络工单', layout: 'main' },
  { path: '/network/ticket_detail', title: '网络工单详情', layout: 'main', menu: '/network/ticket_lists' },
  { path: '/network/pop_edit', title: '接入POP', layout: 'main', menu: '/network/lists' },
  { path: '/network/fr_lists', title: 'POP资源', layout: 'main' },
  // own layout: a full-width form without the console's sidebar
  { path: '/network/ticket_create', title: '提交网络工单', layout: 'second', menu: '/network/ticket_lists' },
  // SaaS devices, members (document 3)
  { path: '/saas/router', title: 'SaaS设备', layout: 'main' },
  { path: '/saas/detail', title: 'SaaS设备详情', layout: 'main', menu: '/saas/router' },
  { path: '/router/lists', title: '成员列表', layout: 'main', page: lazy(() => import('../features/router/RouterListPage')) },
  { path: '/router/detail', title: '成员详情', layout: 'main', menu: '/router/lists' },
  { path: '/router/ldap', title: 'LDAP', layout: 'main' },
  { path: '/router/ldap_edit', title: 'LDAP配置', layout: 'main', menu: '/router/ldap' },
  { path: '/router/auth_source', title: '认证源', layout: 'main' },
  // monitoring, logs
  { path: '/monitor/setting', title: '监控告警策略', layout: 'main' },
  { path: '/logs/software_login', title: '软件登录记录', layout: 'main' },
  { path: '/logs/online', title: '在线日志', layout: 'main' },
  { path: '/logs/connect', title: '连接日志', layout: 'main' },
  // tickets
  { path: '/ticket/lists', title: '工单列表', layout: 'main' },
  { path: '/ticket/detail', title: '工单详情', layout: 'main', menu: '/ticket/lists' },
  { path: '/ticket/create', title: '提交工单', layout: 'main', menu: '/ticket/lists' },
  // sub-accounts
  { path: '/ram/index', title: '子账号', layout: 'main', page: lazy(() => import('../features/ram/RamPage')) },
  { path: '/ram/role', title: '角色', layout: 'main', page: lazy(() => import('../features/ram/RolePage')) },
  // not found
  { path: NOT_FOUND_PATH, title: '页面不存在', layout: 'main', page: NotFoundPage },
];

const byPath = new Map(ROUTES.map((r) => [r.path, r]));

export const routeOf = (pathname: string): PageRoute | undefined => byPath.get(normalizePath(pathname));

/** The title of a path, or undefined for a path outside the table. */
export const titleOf = (pathname: string): string | undefined => routeOf(pathname)?.title;
