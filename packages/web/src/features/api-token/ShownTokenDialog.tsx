import { apiTokenMessages } from '@hublink/contract';
import { Alert, Button, Modal, Typography } from 'antd';

/** The new token, shown this once, with a copy button and the warning that it cannot be shown again. */
export function ShownTokenDialog({ token, onClose }: { token: string | null; onClose: () => void }) {
  return (
    <Modal
      title={apiTokenMessages.apiTokenShownTitle}
      open={token !== null}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose}>
          {apiTokenMessages.apiTokenSaved}
        </Button>
      }
    >
      <Alert type="warning" showIcon title={apiTokenMessages.apiTokenShownWarning} style={{ marginBottom: 16 }} />
      <Typography.Paragraph
        code
        copyable={{ text: token ?? '', tooltips: [apiTokenMessages.apiTokenCopy, apiTokenMessages.apiTokenCopied] }}
        style={{ wordBreak: 'break-all', fontSize: 13 }}
        data-testid="api-token-value"
      >
        {token}
      </Typography.Paragraph>
    </Modal>
  );
}
