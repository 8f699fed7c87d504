import { BM } from '@hublink/contract';
import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useBrand } from '../../session/brand';
import { groupOf, isGroup, labelOf, menuKeyOf, visibleMenu, type MenuEntry } from '../menu';
import { useUser } from '../../session/user';
import { MENU_ICONS } from './menuIcons';

type Items = NonNullable<MenuProps['items']>;

const entryItem = (entry: MenuEntry) => ({
  key: entry.path,
  icon: MENU_ICONS[entry.path],
  label: labelOf(entry),
});

/** The side menu of spec 1 §2.6 for the current user and host. */
export function SideMenu({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const user = useUser();
  const brand = useBrand();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const nodes = useMemo(() => visibleMenu({ user, brand }), [user, brand]);
  const selected = menuKeyOf(pathname);
  const [openKeys, setOpenKeys] = useState<string[]>(() => {
    const group = groupOf(selected);
    return group ? [group.key] : [];
  });

  // Opening a page of a closed group opens the group.
  useEffect(() => {
    const group = groupOf(selected);
    if (group) setOpenKeys((keys) => (keys.includes(group.key) ? keys : [...keys, group.key]));
  }, [selected]);

  const items: Items = nodes.map((node) =>
    isGroup(node)
      ? { key: node.key, icon: MENU_ICONS[node.key], label: node.label, children: node.children.map(entryItem) }
      : entryItem(node),
  );
  const newTab = new Set(nodes.flatMap((n) => (isGroup(n) ? n.children : [n])).filter((e) => e.newTab).map((e) => e.path));

  const onClick: MenuProps['onClick'] = ({ key }) => {
    onNavigate?.();
    if (newTab.has(key)) {
      window.open(key, '_blank', 'noopener');
      return;
    }
    void navigate(key);
  };

  return (
    <Menu
      aria-label={BM.sideMenu}
      mode="inline"
      theme="light"
      items={items}
      selectedKeys={[selected]}
      onClick={onClick}
      style={{ borderInlineEnd: 'none' }}
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
    />
  );
}
