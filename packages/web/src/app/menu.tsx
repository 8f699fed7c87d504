import { BM, type Brand, type UserMessage } from '@hublink/contract';
import type { Crumb } from '../components/pageRoute';
import { mayVisit } from '../session/guard';
import { routeOf, titleOf } from './routes';

/** What the side menu's conditions look at (spec 1 §2.6). */
export interface MenuContext {
  user: UserMessage | null;
  brand: Brand;
}
type Condition = (ctx: MenuContext) => boolean;

const authSourceEnabled: Condition = ({ user }) => user?.config.software_auth_source === 1;
const ownHost: Condition = ({ brand }) => brand.own;

export interface MenuEntry {
  /** A path of the route table; its title is the label. */
  path: string;
  show?: Condition;
  /** Opens in a new tab instead of navigating (help documents). */
  newTab?: boolean;
}

export interface MenuGroup {
  key: string;
  label: string;
  show?: Condition;
  children: MenuEntry[];
}

export type MenuNode = MenuEntry | MenuGroup;

export const isGroup = (node: MenuNode): node is MenuGroup => 'children' in node;

/** The side menu of spec 1 §2.6 (its icons: layouts/menuIcons.tsx, so that pages' breadcrumbs do not load them). */
export const MENU: MenuNode[] = [
  { path: '/dashboard' },
  {
    key: 'account',
    label: BM.menuAccount,
    children: [
      { path: '/account/info' },
      { path: '/account/message' },
      { path: '/account/service' },
      { path: '/account/announcements' },
      { path: '/account/api_token' },
    ],
  },
  {
    key: 'network',
    label: BM.menuNetwork,
    children: [{ path: '/network/lists' }, { path: '/network/fr_lists' }, { path: '/network/ticket_lists' }],
  },
  { path: '/saas/router' },
  {
    key: 'member',
    label: BM.menuMembers,
    children: [{ path: '/router/lists' }, { path: '/router/ldap' }, { path: '/router/auth_source', show: authSourceEnabled }, { path: '/router/device_approval' }],
  },
  { path: '/monitor/setting' },
  {
    key: 'logs',
    label: BM.menuLogs,
    children: [{ path: '/logs/software_login' }, { path: '/logs/online' }, { path: '/logs/connect' }, { path: '/audit' }],
  },
  {
    key: 'ram',
    label: BM.menuRam,
    children: [{ path: '/ram/index' }, { path: '/ram/role' }],
  },
  { path: '/ticket/lists' },
  { path: '/handbook', newTab: true, show: ownHost },
];

const visible = (ctx: MenuContext) => (node: { show?: Condition; path?: string }) =>
  (!node.show || node.show(ctx)) && (node.path === undefined || mayVisit(routeOf(node.path)?.access, ctx.user));

/**
 * The menu this user sees on this host; groups left without entries disappear. Who may see a page is
 * the route table's `access` (the same rule the route guard applies), hidden while the user loads.
 */
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
