import { DownloadOutlined } from '@ant-design/icons';
import { BM, documentMessages, downloadLinux, LINUX_ARCHS, LINUX_PANELS, type LinuxArch, type LinuxPanel, type LinuxReleaseItem } from '@hublink/contract';
import { Button, Flex, Form, Modal, Radio, Typography } from 'antd';
import { useState } from 'react';
import { urlOf } from '../../api/client';
import { ARCH_NAMES, PANEL_NAMES } from './platform';
import { ReleaseFacts } from './ReleaseFacts';

interface LinuxDialogProps {
  releases: LinuxReleaseItem[];
  /** The visitor's processor, chosen first when there is a package for it. */
  arch: LinuxArch | null;
  onClose: () => void;
}

/** The platform to offer for a panel: the visitor's if there is a package for it, else the first there is. */
function archFor(releases: LinuxReleaseItem[], panel: LinuxPanel | null, preferred: LinuxArch | null): LinuxArch | null {
  const available = releases.filter((r) => r.panel === panel).map((r) => r.platform);
  return preferred && available.includes(preferred) ? preferred : (LINUX_ARCHS.find((a) => available.includes(a)) ?? null);
}

/** Spec 3 §2: the Linux client is downloaded by choosing its version (cli or graphical panel) and its platform. */
export function LinuxDialog({ releases, arch: preferred, onClose }: LinuxDialogProps) {
  const firstPanel = LINUX_PANELS.find((p) => releases.some((r) => r.panel === p)) ?? null;
  const [panel, setPanel] = useState<LinuxPanel | null>(firstPanel);
  const [arch, setArch] = useState<LinuxArch | null>(archFor(releases, firstPanel, preferred));
  const chosen = releases.find((r) => r.panel === panel && r.platform === arch) ?? null;

  const choosePanel = (next: LinuxPanel) => {
    setPanel(next);
    setArch((current) => (releases.some((r) => r.panel === next && r.platform === current) ? current : archFor(releases, next, preferred)));
  };

  return (
    <Modal
      open
      title={documentMessages.downloadLinuxTitle}
      onCancel={onClose}
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{BM.cancel}</Button>
          <Button
            type="primary"
            icon={<DownloadOutlined />}
            disabled={!chosen}
            href={chosen && panel && arch ? urlOf(downloadLinux, { panel, platform: arch }) : undefined}
            onClick={onClose}
          >
            {documentMessages.downloadButton}
          </Button>
        </Flex>
      }
    >
      <Form layout="vertical" requiredMark={false}>
        <Form.Item label={documentMessages.downloadPanel}>
          <Radio.Group
            name="panel"
            optionType="button"
            value={panel}
            onChange={(e) => choosePanel(e.target.value as LinuxPanel)}
            options={LINUX_PANELS.map((p) => ({ value: p, label: PANEL_NAMES[p], disabled: !releases.some((r) => r.panel === p) }))}
          />
        </Form.Item>
        <Form.Item label={documentMessages.downloadPlatform} help={panel && !arch ? documentMessages.downloadPlatformMissing : undefined}>
          <Radio.Group
            name="platform"
            value={arch}
            onChange={(e) => setArch(e.target.value as LinuxArch)}
            options={LINUX_ARCHS.map((a) => ({ value: a, label: ARCH_NAMES[a], disabled: !releases.some((r) => r.panel === panel && r.platform === a) }))}
          />
        </Form.Item>
      </Form>
      {chosen && (
        <Flex vertical gap={4}>
          <Typography.Text strong>{`${PANEL_NAMES[chosen.panel]} · ${ARCH_NAMES[chosen.platform]}`}</Typography.Text>
          <ReleaseFacts release={chosen} />
        </Flex>
      )}
    </Modal>
  );
}
