import { Alert, Button, theme } from 'antd';

/**
 * Says that a list shows only what a link asked for (the dashboard overview's figures open filtered
 * lists), with a button back to the whole list.
 */
export function FilterNotice({ text, clearText, onClear }: { text: string; clearText: string; onClear: () => void }) {
  const { token } = theme.useToken();
  return (
    <Alert
      type="info"
      showIcon
      title={text}
      style={{ marginBottom: token.marginSM }}
      action={
        <Button type="link" size="small" onClick={onClear}>
          {clearText}
        </Button>
      }
    />
  );
}
