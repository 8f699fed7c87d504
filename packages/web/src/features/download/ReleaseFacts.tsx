import { fmt, M, type ReleaseItem } from '@hublink/contract';
import { Typography } from 'antd';
import { sizeText } from './platform';

/** Version, size and day of a release, then its notes as written (line breaks kept). */
export function ReleaseFacts({ release, notesRows }: { release: ReleaseItem; notesRows?: number }) {
  const facts = [fmt(M.downloadVersion, { version: release.version }), release.size !== null && sizeText(release.size), fmt(M.downloadReleasedAt, { time: release.create_time.slice(0, 10) })];
  return (
    <>
      <Typography.Text type="secondary">{facts.filter(Boolean).join(' · ')}</Typography.Text>
      {release.notes && (
        <Typography.Paragraph
          type="secondary"
          style={{ whiteSpace: 'pre-line', marginBottom: 0 }}
          ellipsis={notesRows ? { rows: notesRows, expandable: true } : false}
        >
          {release.notes}
        </Typography.Paragraph>
      )}
    </>
  );
}
