import { DownOutlined } from '@ant-design/icons';
import { M, type NetworkDetail } from '@hublink/contract';
import { Button, Dropdown, Tooltip } from 'antd';
import { useUser } from '../../app/user';
import { configEntries } from './configMenu';

/** The 配置 menu: the network's configuration dialogs, each one not built yet (即将上线). */
export function ConfigMenu({ detail }: { detail: NetworkDetail }) {
  const user = useUser();
  const items = configEntries(detail, user?.auth).map((e) => ({
    key: e.key,
    disabled: true,
    label: (
      <Tooltip title={M.networkSoon} placement="left">
        <span>{e.label}</span>
      </Tooltip>
    ),
  }));
  return (
    <Dropdown menu={{ items }} trigger={['click']}>
      <Button>
        {M.networkConfig} <DownOutlined />
      </Button>
    </Dropdown>
  );
}
