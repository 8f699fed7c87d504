import { DownloadOutlined } from '@ant-design/icons';
import { batchAddRouters, CODE, LIMITS, M, MEMBER_FILES, softwareTemplate, type BatchResult } from '@hublink/contract';
import { Button, Flex, Modal } from 'antd';
import { useState } from 'react';
import { download, upload } from '../../api/files';
import { useReloadMembers } from './api';
import { BatchResultView } from './BatchResultView';
import { useGuardedBusy } from '../../components/useGuardedBusy';
import { XlsxDragger } from './XlsxDragger';

/** Bulk import takes a password hash per row, so it may run longer than an ordinary call. */
const IMPORT_TIMEOUT_MS = LIMITS.submitGuardLongMs;

/**
 * Bulk add of software members from the template (spec 3): download the template, choose one .xlsx,
 * upload it to /router/batch, then read which rows were added and why the others were refused.
 * A refused upload shows the server's message and forgets the file.
 */
export function BatchAddDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<BatchResult | null>(null);
  const { busy, run } = useGuardedBusy(IMPORT_TIMEOUT_MS);
  const reload = useReloadMembers();

  const close = () => {
    setFile(null);
    setResult(null);
    onClose();
  };

  const submit = () =>
    void run(async () => {
      if (!file) return;
      const env = await upload(batchAddRouters, file, { timeoutMs: IMPORT_TIMEOUT_MS });
      if (env.code === CODE.ok && env.data) {
        setResult(env.data);
        void reload();
      } else {
        setFile(null);
      }
    });

  const footer = result
    ? [
        <Button key="close" type="primary" onClick={close}>
          {M.close}
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={close}>
          {M.cancel}
        </Button>,
        <Button key="submit" type="primary" loading={busy} disabled={!file} onClick={submit}>
          {M.memberUploadSubmit}
        </Button>,
      ];

  return (
    <Modal title={M.memberBatchAdd} open={open} onCancel={close} footer={footer} width={720} destroyOnHidden mask={{ closable: !busy }}>
      {result ? (
        <BatchResultView result={result} />
      ) : (
        <Flex vertical gap={16}>
          <div>
            <Button icon={<DownloadOutlined />} onClick={() => void download(softwareTemplate, undefined, `${MEMBER_FILES.importTemplate}.xlsx`)}>
              {M.memberTemplateDownload}
            </Button>
          </div>
          <XlsxDragger file={file} onFile={setFile} uploading={busy} />
        </Flex>
      )}
    </Modal>
  );
}
