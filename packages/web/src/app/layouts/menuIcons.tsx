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
import type { ReactNode } from 'react';

/**
 * The side menu's icons, by entry path or group key of app/menu.tsx's MENU. Apart from the menu's
 * structure, which every page's breadcrumb reads: only the console's frame loads the icons.
 */
export const MENU_ICONS: Record<string, ReactNode> = {
  '/dashboard': <DashboardOutlined />,
  account: <UserOutlined />,
  network: <ApartmentOutlined />,
  '/saas/router': <CloudServerOutlined />,
  member: <TeamOutlined />,
  '/monitor/setting': <AlertOutlined />,
  logs: <FileSearchOutlined />,
  ram: <SafetyCertificateOutlined />,
  '/ticket/lists': <CustomerServiceOutlined />,
  '/handbook': <QuestionCircleOutlined />,
};
