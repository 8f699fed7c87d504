import {
  AlertOutlined,
  ApartmentOutlined,
  CloudServerOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  FileSearchOutlined,
  QuestionCircleOutlined,
  SafetyCertificateOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { Brand, UserMessage } from '@hublink/contract';
import type { ReactNode } from 'react';
import { routeOf, titleOf } from './routes';

/** What the side menu's conditions look at (spec 1 §2.6). */
export interface MenuContext {
  user: UserMessage | null;
  brand: Brand;
}
type Condition = (ctx: MenuContext) => boolean;

/** Known to be a main account (hidden while the user is still loading, so sub-accounts never see it). */
const mainAccountOnly: Condition = ({ user }) => user !== null && user.ram !== 1;
const authSourceEnabled: Condition = ({ user }) => user?.config.software_auth_source === 1;
const ownHost: Condition = ({ brand }) => brand.own;

export interface MenuEntry {
  /** A path of the route table; its title is the label. */
  path: string;
  icon?: ReactNode;
  show?: Condition;
  /** Opens in a new tab instead of navigating (help documents). */
  newTab?: boolean;
}

export interface MenuGroup {
  key: string;
  label: string;
  icon: ReactNode;
  show?: Condition;
  children: MenuEntry[];
}

export type MenuNode = MenuEntry | MenuGroup;

export const isGroup = (node: MenuNode): node is MenuGroup => 'children' in node;

/** The side menu of spec 1 §2.6. */
export const MENU: MenuNode[] = [
  { path: '/dashboard', icon: <DashboardOutlined /> },
  {
    key: 'account',
    label: '账号中心',
    icon: <UserOutlined />,
    children: [
      { path: '/account/info', show: mainAccountOnly },
      { path: '/account/message' },
      { path: '/account/service' },
      { path: '/account/announcements' },
    ],
  },
  {
    key: 'network',
    label: '智能组网',
    icon: <ApartmentOutlined />,
    children: [{ path: '/network/lists' }, { path: '/network/fr_lists' }, { path: '/network/ticket_lists' }],
  },
  { path: '/saas/router', icon: <CloudServerOutlined /> },
  {
    key: 'member',
    label: '成员管理',
    icon: <TeamOutlined />,
    children: [{ path: '/router/lists' }, { path: '/router/ldap' }, { path: '/router/auth_source', show: authSourceEnabled }],
  },
  { path: '/monitor/setting', icon: <AlertOutlined /> },
  {
    key: 'logs',
    label: '日志管理',
    icon: <FileSearchOutlined />,
    children: [{ path: '/logs/software_login', show: mainAccountOnly }, { path: '/logs/online' }, { path: '/logs/connect' }],
  },
  {
    key: 'ram',
    label: '子账号管理',
    icon: <SafetyCertificateOutlined />,
    show: mainAccountOnly,
    children: [{ path: '/ram/index' }, { path: '/ram/role' }],
  },
  { path: '/ticket/lists', icon: <CustomerServiceOutlined /> },
  { path: '/handbook', icon: <QuestionCircleOutlined />, newTab: true, show: ownHost },
];

const visible = (ctx: MenuContext) => (node: { show?: Condition }) => !node.show || node.show(ctx);

/** The menu this user sees on this host; groups left without entries disappear. */
export function visibleMenu(ctx: MenuContext, menu: MenuNode[] = MENU): MenuNode[] {
  return menu.filter(visible(ctx)).flatMap((node): MenuNode[] => {
    if (!isGroup(node)) return [node];
    const children = node.children.filter(visible(ctx));
    return children.length ? [{ ...node, children }] : [];
  });
}

/** Every path a visible menu leads to, in order (tests and shortcuts). */
export const menuPaths = (nodes: MenuNode[]) => nodes.flatMap((n) => (isGroup(n) ? n.children.map((c) => c.path) : [n.path]));

export const labelOf = (entry: MenuEntry) => titleOf(entry.path) ?? entry.path;

/** The menu entry a page highlights: itself, or the list it belongs to. */
export const menuKeyOf = (pathname: string) => {
  const route = routeOf(pathname);
  return route?.menu ?? route?.path ?? pathname;
};

/** The group that holds an entry, if any. */
export const groupOf = (path: string, menu: MenuNode[] = MENU) =>
  menu.find((n): n is MenuGroup => isGroup(n) && n.children.some((c) => c.path === path));

export interface Crumb {
  title: string;
  path?: string;
}

/** Where a page sits: menu group, the list it belongs to, the page itself. */
export function breadcrumbOf(pathname: string): Crumb[] {
  const route = routeOf(pathname);
  if (!route) return [];
  const key = menuKeyOf(pathname);
  const crumbs: Crumb[] = [];
  const group = groupOf(key);
  if (group) crumbs.push({ title: group.label });
  if (key !== route.path) crumbs.push({ title: titleOf(key) ?? key, path: key });
  crumbs.push({ title: route.title });
  return crumbs;
}
