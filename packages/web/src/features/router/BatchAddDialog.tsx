import { DownloadOutlined } from '@ant-design/icons';
import { batchAddRouters, type BatchResult, batchStatus, BM, CODE, fmt, IMPORT_STATE, type ImportStatus, LIMITS, MEMBER_FILES, routerMessages, softwareTemplate } from '@hublink/contract';
import { Alert, Button, Flex, Modal, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { download, upload } from '../../api/files';
import { useApiQuery } from '../../api/hooks';
import { useGuardedBusy } from '../../components/useGuardedBusy';
import { useReloadMembers } from './api';
import { BatchResultView } from './BatchResultView';
import { ImportProgress } from './ImportProgress';
import { unseenImport } from './importWatch';
import { XlsxDragger } from './XlsxDragger';

/** Sending the file may take a while on a slow line (up to 2 MB); the rows are added afterwards, by the job. */
const UPLOAD_TIMEOUT_MS = LIMITS.submitGuardLongMs;

/** An import's result with its refused rows first (each part in row order): in 10,000 rows they are what needs a look. */
const refusedFirst = (result: BatchResult): BatchResult => ({ ...result, rows: [...result.rows.filter((r) => !r.ok), ...result.rows.filter((r) => r.ok)] });

/**
 * What the dialog shows: the upload form, a running import's progress, or an ended import's result
 * (the one this tab started and has not shown yet, or the latest when the user asks for it).
 */
function viewOf(status: ImportStatus | null | undefined, unseen: number | null, askedFor: number | null): 'form' | 'progress' | 'result' {
  if (!status) return 'form';
  if (status.state === IMPORT_STATE.running) return 'progress';
  return status.id === unseen || status.id === askedFor ? 'result' : 'form';
}

/**
 * Bulk add of software members from the template (spec 3): download the template, choose one .xlsx,
 * upload it to /router/batch. The rows are added by a job on the server: while it runs the dialog
 * shows its progress (polling /router/batch_status), then which rows were added and why the others
 * were refused. Closing the dialog does not stop the import; opening it again shows the tenant's
 * running import with every row refused so far, or the result of the one this tab started if it
 * ended meanwhile; the form offers the latest import's result (from any tab or session) while the
 * server keeps it. A refused upload shows the server's message and forgets the file.
 */
export function BatchAddDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [unseen, setUnseen] = useState(unseenImport.get);
  const [askedFor, setAskedFor] = useState<number | null>(null);
  const { busy, run } = useGuardedBusy(UPLOAD_TIMEOUT_MS);
  const reload = useReloadMembers();
  const status = useApiQuery(batchStatus, undefined, {
    enabled: open,
    quiet: true,
    refetchInterval: (q) => (q.state.data?.data?.state === IMPORT_STATE.running ? LIMITS.importPollMs : false),
  });
  const current = status.data?.data;
  const view = viewOf(current, unseen, askedFor);

  // The members list reloads when an import it watched ends.
  const watched = useRef<number | null>(null);
  useEffect(() => {
    if (current?.state === IMPORT_STATE.running) watched.current = current.id;
    else if (current && watched.current === current.id) {
      watched.current = null;
      void reload();
    }
  }, [current, reload]);

  const close = () => {
    setFile(null);
    setAskedFor(null);
    if (view === 'result') {
      unseenImport.clear();
      setUnseen(null);
    }
    onClose();
  };

  const submit = () =>
    void run(async () => {
      if (!file) return;
      const env = await upload(batchAddRouters, file, { timeoutMs: UPLOAD_TIMEOUT_MS });
      setFile(null);
      if (env.code === CODE.ok && env.data) {
        // Watched from now: a small file may be done before the first poll sees it running.
        watched.current = env.data.id;
        unseenImport.set(env.data.id);
        setUnseen(env.data.id);
        await status.refetch();
      }
    });

  const footer =
    view === 'form'
      ? [
          <Button key="cancel" onClick={close}>
            {BM.cancel}
          </Button>,
          <Button key="submit" type="primary" loading={busy} disabled={!file} onClick={submit}>
            {routerMessages.memberUploadSubmit}
          </Button>,
        ]
      : [
          <Button key="close" type="primary" onClick={close}>
            {BM.close}
          </Button>,
        ];

  return (
    <Modal title={routerMessages.memberBatchAdd} open={open} onCancel={close} footer={footer} width={720} destroyOnHidden mask={{ closable: !busy }}>
      {view === 'progress' && current ? (
        <Flex vertical gap={16}>
          <ImportProgress status={current} />
          {current.result && current.result.rows.length > 0 && <BatchResultView result={current.result} rowsOnly />}
        </Flex>
      ) : view === 'result' && current?.result ? (
        <Flex vertical gap={16}>
          {current.state === IMPORT_STATE.failed && <Alert type="error" showIcon title={routerMessages.importFailed} />}
          <BatchResultView result={refusedFirst(current.result)} />
        </Flex>
      ) : (
        <Flex vertical gap={16}>
          <div>
            <Button icon={<DownloadOutlined />} onClick={() => void download(softwareTemplate, undefined, `${MEMBER_FILES.importTemplate}.xlsx`)}>
              {routerMessages.memberTemplateDownload}
            </Button>
          </div>
          <XlsxDragger file={file} onFile={setFile} uploading={busy} />
          {current?.result && (
            <Typography.Text type="secondary">
              {fmt(routerMessages.importLast, { ok: current.result.success, fail: current.result.fail })}
              <Typography.Link style={{ marginInlineStart: 8 }} onClick={() => setAskedFor(current.id)}>
                {routerMessages.importLastView}
              </Typography.Link>
            </Typography.Text>
          )}
        </Flex>
      )}
    </Modal>
  );
}
