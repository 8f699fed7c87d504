import { CheckOutlined, DeleteOutlined } from '@ant-design/icons';
import { BM, CODE, deleteMessages, LIMITS, listMessages, markMessagesRead, type MessageItem, messageMessages, type MessageSelection, messageTypeField, messageTypeLabel, overviewMessages } from '@hublink/contract';
import { App, Button, Flex, Typography, theme, type TableColumnsType } from 'antd';
import { useEffect, useState, type Key } from 'react';
import { useSearchParams } from 'react-router';
import { useApiMutation } from '../../api/hooks';
import { toast } from '../../api/notify';
import { usePagedList } from '../../api/usePagedList';
import { reloadUser, useUser } from '../../session/user';
import { PageContainer } from '../../components/PageContainer';
import { FilterNotice } from '../../components/FilterNotice';
import { PagedTable } from '../../components/PagedTable';
import { MessageDialog } from './MessageDialog';

const TYPE_PARAM = 'type';

/** A small dot before an unread message's title. */
function UnreadDot() {
  const { token } = theme.useToken();
  return (
    <span
      role="img"
      aria-label={messageMessages.messageUnread}
      title={messageMessages.messageUnread}
      style={{ display: 'inline-block', flex: 'none', width: 6, height: 6, borderRadius: '50%', background: token.colorError }}
    />
  );
}

/**
 * The message centre (spec 1 §2.9): a paged table with selection; delete or mark the selection read,
 * or all messages; a title opens the message, which marks it read and refreshes the unread count.
 * Sub-accounts read and mark messages but do not delete them (docs/decisions.md).
 */
export default function MessagePage() {
  const [params, setParams] = useSearchParams();
  // ?type=alert (the dashboard overview's alerts) keeps one kind; an unknown type is ignored.
  const type = messageTypeField.safeParse(params.get(TYPE_PARAM)).data;
  const list = usePagedList(listMessages, type ? { type } : {});
  const user = useUser();
  const { modal } = App.useApp();
  const [selected, setSelected] = useState<number[]>([]);
  const [opened, setOpened] = useState<MessageItem | null>(null);
  const markRead = useApiMutation(markMessagesRead, { invalidates: ['/message/'], on204: 'stay' });
  const remove = useApiMutation(deleteMessages, { invalidates: ['/message/'], on204: 'stay' });
  const canDelete = user?.ram !== 1;
  const lastPage = Math.max(1, Math.ceil(list.total / LIMITS.pageSize));
  const emptied = !list.loading && list.rows?.length === 0 && list.page > lastPage;

  // Deleting the last rows of a later page leaves it empty: show the last page that has rows.
  const goToPage = list.setPage;
  useEffect(() => {
    if (emptied) goToPage(lastPage);
  }, [emptied, lastPage, goToPage]);

  const setPage = (page: number) => {
    setSelected([]);
    list.setPage(page);
  };

  /** Asks first, then runs the call; afterwards the list and the unread count are fresh either way. */
  const act = (title: string, run: (sel: MessageSelection) => Promise<{ code: number }>, sel: MessageSelection) =>
    modal.confirm({
      title,
      onOk: async () => {
        const env = await run(sel);
        if (env.code === CODE.ok || env.code === CODE.notFound) {
          setSelected([]);
          if (env.code === CODE.notFound) await list.refetch();
          await reloadUser();
        }
      },
    });

  const onSelected = (title: string, run: (sel: MessageSelection) => Promise<{ code: number }>) => {
    if (selected.length === 0) {
      toast.warning(BM.selectMessage);
      return;
    }
    act(title, run, { message_id: selected });
  };

  const columns: TableColumnsType<MessageItem> = [
    {
      title: messageMessages.messageColTitle,
      dataIndex: 'title',
      render: (title: string, row) => (
        <Flex align="center" gap={8}>
          {row.status === 0 && <UnreadDot />}
          <Typography.Link onClick={() => setOpened(row)} strong={row.status === 0}>
            {title}
          </Typography.Link>
        </Flex>
      ),
    },
    { title: messageMessages.messageColDate, dataIndex: 'create_time', width: 200 },
    { title: messageMessages.messageColType, dataIndex: 'type', width: 140, render: (type: string) => messageTypeLabel(type) },
  ];

  const toolbar = (
    <>
      {canDelete && (
        <Button icon={<DeleteOutlined />} onClick={() => onSelected(BM.confirmDelete, remove.mutateAsync)}>
          {messageMessages.messageDeleteSelected}
        </Button>
      )}
      <Button icon={<CheckOutlined />} onClick={() => onSelected(messageMessages.confirmMarkRead, markRead.mutateAsync)}>
        {messageMessages.messageMarkSelectedRead}
      </Button>
      <Button disabled={list.total === 0} onClick={() => act(messageMessages.confirmMarkAllRead, markRead.mutateAsync, { type: 'all' })}>
        {messageMessages.messageMarkAllRead}
      </Button>
      {canDelete && (
        <Button danger disabled={list.total === 0} onClick={() => act(messageMessages.confirmDeleteAll, remove.mutateAsync, { type: 'all' })}>
          {messageMessages.messageDeleteAll}
        </Button>
      )}
    </>
  );

  return (
    <PageContainer>
      {type === 'alert' && (
        <FilterNotice text={overviewMessages.messageFilterAlert} clearText={overviewMessages.messageFilterClear} onClear={() => setParams({}, { replace: true })} />
      )}
      <PagedTable<MessageItem>
        rowKey="message_id"
        list={{ ...list, setPage }}
        columns={columns}
        toolbar={toolbar}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys: Key[]) => setSelected(keys.map(Number)) }}
      />
      <MessageDialog
        message={opened}
        onClose={() => setOpened(null)}
        onOpened={() => {
          void list.refetch();
          void reloadUser();
        }}
      />
    </PageContainer>
  );
}
