import { documentMessages, fmt, type ReleaseItem } from '@hublink/contract';
import { Flex, Typography } from 'antd';
import { sizeText } from './platform';

/** Version, size and day of a release (each kept on one line), then its notes as written (line breaks kept). */
export function ReleaseFacts({ release, notesRows }: { release: ReleaseItem; notesRows?: number }) {
  const facts = [fmt(documentMessages.downloadVersion, { version: release.version }), release.size !== null ? sizeText(release.size) : null, fmt(documentMessages.downloadReleasedAt, { time: release.create_time.slice(0, 10) })];
  return (
    <>
      <Flex wrap gap="0 12px">
        {facts.map(
          (fact) =>
            fact && (
              <Typography.Text key={fact} type="secondary" style={{ whiteSpace: 'nowrap' }}>
                {fact}
              </Typography.Text>
            ),
        )}
      </Flex>
      {release.notes && (
        <Typography.Paragraph type="secondary" style={{ whiteSpace: 'pre-line', marginBottom: 0 }} ellipsis={notesRows ? { rows: notesRows, expandable: true } : false}>
          {release.notes}
        </Typography.Paragraph>
      )}
    </>
  );
}
