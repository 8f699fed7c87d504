import { DownloadOutlined } from '@ant-design/icons';
import { batchDeleteRouters, batchDeleteRoutersFile, type BatchResult, BM, CODE, MEMBER_FILES, type RouterItem, routerMessages, softwareDeleteTemplate } from '@hublink/contract';
import { Button, Flex, Modal, Radio, Table, Typography } from 'antd';
import { useState } from 'react';
import { call } from '../../api/client';
import { download, upload } from '../../api/files';
import { toast } from '../../api/notify';
import { ConfirmByTyping } from '../../components/ConfirmByTyping';
import { useReloadMembers } from './api';
import { BatchResultView } from './BatchResultView';
import { shortNote } from '../../components/shortNote';
import { useGuardedBusy } from '../../components/useGuardedBusy';
import { XlsxDragger } from './XlsxDragger';

type Mode = 'list' | 'file';

export interface BatchDeleteDialogProps {
  open: boolean;
  /** The software members on the list's current page (list mode chooses among them). */
  rows: RouterItem[];
  onClose: () => void;
}

const columns = [
  { title: routerMessages.memberColAccount, dataIndex: 'router_name', key: 'router_name' },
  { title: routerMessages.memberColNote, dataIndex: 'note', key: 'note', render: (v: string) => <span title={v}>{shortNote(v)}</span> },
];

/**
 * Bulk delete of software members (spec 3 §4): type 确认操作 first; then tick members of the current
 * list or upload the delete template; then a result table. The submit is guarded for 10 s.
 */
export function BatchDeleteDialog({ open, rows, onClose }: BatchDeleteDialogProps) {
  const [confirmed, setConfirmed] = useState(false);
  const [mode, setMode] = useState<Mode>('list');
  const [selected, setSelected] = useState<string[]>([]);
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<BatchResult | null>(null);
  const { busy, run } = useGuardedBusy();
  const reload = useReloadMembers();

  const close = () => {
    setConfirmed(false);
    setMode('list');
    setSelected([]);
    setFile(null);
    setResult(null);
    onClose();
  };

  const finish = (data: BatchResult) => {
    setResult(data);
    void reload();
  };

  const submit = () =>
    void run(async () => {
      if (mode === 'list') {
        if (selected.length === 0) {
          toast.warning(routerMessages.selectSoftwareMember);
          return;
        }
        const env = await call(batchDeleteRouters, { body: { router_name: selected } });
        if (env.code === CODE.ok && env.data) finish(env.data);
        return;
      }
      if (!file) return;
      const env = await upload(batchDeleteRoutersFile, file);
      if (env.code === CODE.ok && env.data) finish(env.data);
      else setFile(null);
    });

  const footer = result
    ? [
        <Button key="close" type="primary" onClick={close}>
          {BM.close}
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={close}>
          {BM.cancel}
        </Button>,
        <Button key="submit" type="primary" danger loading={busy} disabled={mode === 'file' && !file} onClick={submit}>
          {routerMessages.memberBatchDeleteSubmit}
        </Button>,
      ];

  return (
    <>
      <ConfirmByTyping
        open={open && !confirmed}
        title={routerMessages.memberBatchDeleteConfirmTitle}
        phrase={routerMessages.confirmPhrase}
        description={routerMessages.memberBatchDeleteConfirmHint}
        onConfirm={() => {
          setConfirmed(true);
          return false;
        }}
        onClose={close}
      />
      <Modal title={routerMessages.memberBatchDelete} open={open && confirmed} onCancel={close} footer={footer} width={720} destroyOnHidden mask={{ closable: !busy }}>
        {result ? (
          <BatchResultView result={result} />
        ) : (
          <Flex vertical gap={16}>
            <Radio.Group
              value={mode}
              onChange={(e) => setMode(e.target.value as Mode)}
              optionType="button"
              buttonStyle="solid"
              options={[
                { value: 'list', label: routerMessages.memberBatchModeList },
                { value: 'file', label: routerMessages.memberBatchModeFile },
              ]}
            />
            {mode === 'list' ? (
              <>
                <Typography.Text type="secondary">{routerMessages.memberBatchListHint}</Typography.Text>
                <Table<RouterItem>
                  size="small"
                  rowKey="router_name"
                  columns={columns}
                  dataSource={rows}
                  pagination={false}
                  rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
                />
              </>
            ) : (
              <>
                <div>
                  <Button icon={<DownloadOutlined />} onClick={() => void download(softwareDeleteTemplate, undefined, `${MEMBER_FILES.deleteTemplate}.xlsx`)}>
                    {routerMessages.memberTemplateDownload}
                  </Button>
                </div>
                <XlsxDragger file={file} onFile={setFile} uploading={busy} />
              </>
            )}
          </Flex>
        )}
      </Modal>
    </>
  );
}
