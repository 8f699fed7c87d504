import { Tooltip, Typography } from 'antd';
import { shortNote } from '../../components/shortNote';
import './memberPicker.css';

/** A member's note on one line: cut as lists cut it, an ellipsis where the column ends, the whole note on hover. */
export function NoteLine({ note, secondary = false }: { note: string; secondary?: boolean }) {
  if (!note) return null;
  return (
    <Tooltip title={note}>
      <Typography.Text className="hl-note-line" type={secondary ? 'secondary' : undefined}>
        {shortNote(note)}
      </Typography.Text>
    </Tooltip>
  );
}
