import { BM } from '@hublink/contract';
import { Drawer, Flex, Radio, Switch, Typography } from 'antd';
import { usePrefs, type ComponentSize } from '../prefs';
import { FRAME } from '../../components/dimensions';

const SIZES: { value: ComponentSize; label: string }[] = [
  { value: 'small', label: BM.sizeSmall },
  { value: 'middle', label: BM.sizeMiddle },
  { value: 'large', label: BM.sizeLarge },
];

interface SettingsDrawerProps {
  open: boolean;
  onClose: () => void;
  sidebarOpened: boolean;
  onSidebarOpened: (opened: boolean) => void;
}

/** The settings side panel of spec 1 §2.6: component size and sidebar, both persisted. */
export function SettingsDrawer({ open, onClose, sidebarOpened, onSidebarOpened }: SettingsDrawerProps) {
  const { size, setSize } = usePrefs();
  return (
    <Drawer title={BM.settingsTitle} open={open} onClose={onClose} size={FRAME.settingsWidth}>
      <Flex vertical gap={24}>
        <Flex vertical gap={8}>
          <Typography.Text strong id="settings-size">
            {BM.componentSize}
          </Typography.Text>
          <Radio.Group
            aria-labelledby="settings-size"
            optionType="button"
            buttonStyle="solid"
            options={SIZES}
            value={size}
            onChange={(e) => setSize(e.target.value as ComponentSize)}
          />
        </Flex>
        <Flex justify="space-between" align="center">
          <Typography.Text strong id="settings-sidebar">
            {BM.sidebarOpened}
          </Typography.Text>
          <Switch aria-labelledby="settings-sidebar" checked={sidebarOpened} onChange={onSidebarOpened} />
        </Flex>
      </Flex>
    </Drawer>
  );
}
