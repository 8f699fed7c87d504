import { BM, CODE, type DataOf, messageInfo, messageTypeLabel } from '@hublink/contract';
import { Button, Flex, Modal, Skeleton, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { call } from '../../api/client';
import { RichHtml } from '../../components/RichHtml';

type Opened = DataOf<typeof messageInfo>;

export interface MessageDialogProps {
  /** The message to show, or null when closed; its title shows while the content loads. */
  message: { message_id: number; title: string } | null;
  onClose: () => void;
  /** Called once the server has the message marked read (or has answered that it is gone). */
  onOpened: () => void;
}

/** A message's title and its (sanitised) HTML content; opening it marks it read (spec 1 §2.9, §4). */
export function MessageDialog({ message, onClose, onOpened }: MessageDialogProps) {
  const [opened, setOpened] = useState<Opened | null>(null);
  const id = message?.message_id;
  // The latest callbacks, so only a new message id (not a new callback) opens a message.
  const handlers = useRef({ onClose, onOpened });
  useEffect(() => {
    handlers.current = { onClose, onOpened };
  });

  useEffect(() => {
    if (id === undefined) return;
    let live = true;
    setOpened(null);
    void call(messageInfo, { query: { message_id: id } }, { on204: 'stay' }).then((env) => {
      if (!live) return;
      if (env.code === CODE.ok && env.data) setOpened(env.data);
      else handlers.current.onClose();
      if (env.code === CODE.ok || env.code === CODE.notFound) handlers.current.onOpened();
    });
    return () => {
      live = false;
    };
  }, [id]);

  return (
    <Modal
      open={message !== null}
      title={opened?.title ?? message?.title}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{BM.close}</Button>}
      width={720}
      destroyOnHidden
    >
      {opened ? (
        <Flex vertical gap={12}>
          <Typography.Text type="secondary">
            {opened.create_time} · {messageTypeLabel(opened.type)}
          </Typography.Text>
          <RichHtml html={opened.content} />
        </Flex>
      ) : (
        <Skeleton active paragraph={{ rows: 4 }} title={false} aria-label={BM.pageLoading} />
      )}
    </Modal>
  );
}
