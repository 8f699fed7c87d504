import { DownOutlined, ExportOutlined } from '@ant-design/icons';
import { BM, CODE, exportNetwork, fmt, networkCodeMessages as C, type NetworkDocumentFormat } from '@hublink/contract';
import { Button, Dropdown } from 'antd';
import { useState } from 'react';
import { call } from '../../api/client';
import { saver } from '../../api/files';
import { toast } from '../../api/notify';

/** What the saved file says it is. */
const FILE_TYPE: Record<NetworkDocumentFormat, string> = {
  yaml: 'application/yaml;charset=utf-8',
  json: 'application/json;charset=utf-8',
};

const ITEMS: { key: NetworkDocumentFormat; label: string }[] = [
  { key: 'yaml', label: C.codeExportYaml },
  { key: 'json', label: C.codeExportJson },
];

/**
 * 导出为文档 (networks as code, issue 36): the network as a YAML or JSON document, saved under the name
 * the server gives it. Anyone who sees the network may export it (the call's access is 'user'); a
 * refusal shows as the call's toast.
 */
export function ExportMenu({ networkNumber }: { networkNumber: string }) {
  const [busy, setBusy] = useState(false);
  const run = async (format: NetworkDocumentFormat) => {
    setBusy(true);
    try {
      const env = await call(exportNetwork, { query: { network_number: networkNumber, format } });
      if (env.code !== CODE.ok || !env.data) return;
      const { file_name, document } = env.data;
      try {
        saver.save(new Blob([document], { type: FILE_TYPE[format] }), file_name);
      } catch {
        toast.error(BM.internalError);
        return;
      }
      toast.success(fmt(C.codeExported, { file: file_name }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dropdown menu={{ items: ITEMS, onClick: ({ key }) => void run(key as NetworkDocumentFormat) }} trigger={['click']} disabled={busy}>
      <Button icon={<ExportOutlined />} loading={busy}>
        {C.codeExport} <DownOutlined />
      </Button>
    </Dropdown>
  );
}
