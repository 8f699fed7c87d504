import { ExclamationCircleOutlined } from '@ant-design/icons';
import { fmt, type NetworkDrift, networkCodeMessages as C, networkHistoryMessages, type VersionDiffRow } from '@hublink/contract';
import { Alert, Button, Flex, Typography, theme } from 'antd';
import { withLinks } from '../../components/withLinks';
import { useNetworkDrift } from './api';

/*
 * Drift (networks as code, issue 36; docs/as-code.md): above the configuration history, what was changed
 * in the console since the last document was applied to the network, field by field as the history
 * compares versions, with the versions that changed it (who, when, what). A network no document was
 * applied to shows nothing; one that matches its document says so quietly. Nothing is drawn until the
 * answer is in, and a save in any dialog reads it again (its path is in the area the saves refresh).
 */

/** The lists scroll inside the notice past this height, so a large drift does not push the page away. */
const LIST_MAX_HEIGHT = 200;

const LIST_STYLE = { margin: 0, paddingInlineStart: 20, maxHeight: LIST_MAX_HEIGHT, overflowY: 'auto' } as const;
const BREAK = { wordBreak: 'break-word', overflowWrap: 'anywhere' } as const;

const shown = (v: string) => (v === '' ? '—' : v);

/** A time kept on one line (a narrow screen would otherwise break it at its hyphens). */
const time = (t: string) => <span style={{ whiteSpace: 'nowrap' }}>{t}</span>;

/** One changed field: its label, then the applied value → the value now. */
function ChangeRow({ row }: { row: VersionDiffRow }) {
  return (
    <li data-key={row.key}>
      <Flex wrap gap="0 8px" align="baseline">
        <Typography.Text type="secondary" style={BREAK}>
          {row.label}
        </Typography.Text>
        <Typography.Text style={BREAK}>
          {shown(row.a)} → <Typography.Text strong>{shown(row.b)}</Typography.Text>
        </Typography.Text>
      </Flex>
    </li>
  );
}

function Drifted({ drift }: { drift: NetworkDrift }) {
  return (
    <Alert
      type="warning"
      showIcon
      title={C.codeDriftTitle}
      description={
        <Flex vertical gap={8}>
          <Typography.Text style={BREAK}>{withLinks(C.codeDriftText, { version: drift.applied_version, who: drift.applied_by, time: time(drift.applied_time) })}</Typography.Text>
          <ul style={LIST_STYLE} aria-label={C.codeDriftTitle}>
            {drift.changes.map((row) => (
              <ChangeRow key={row.key} row={row} />
            ))}
          </ul>
          {drift.versions.length > 0 && (
            <>
              <Typography.Text>{C.codeDriftSince}</Typography.Text>
              <ul style={LIST_STYLE} aria-label={C.codeDriftSince}>
                {drift.versions.map((v) => (
                  <li key={v.version} style={BREAK}>
                    <Typography.Text type="secondary">{withLinks(C.codeDriftBy, { who: v.who, time: time(v.create_time), summary: v.summary })}</Typography.Text>
                  </li>
                ))}
              </ul>
            </>
          )}
        </Flex>
      }
    />
  );
}

/** Nothing while loading and when no document was ever applied; a warning with the changes; a quiet line when in step. */
export function DriftNotice({ networkNumber }: { networkNumber: string }) {
  const drift = useNetworkDrift(networkNumber);
  const { token } = theme.useToken();
  if (drift.isError) {
    return (
      <Flex gap={4} align="center" wrap role="status">
        <ExclamationCircleOutlined style={{ color: token.colorTextTertiary }} />
        <Typography.Text type="secondary">{C.codeDriftLoadFailed}</Typography.Text>
        <Button type="link" size="small" loading={drift.isFetching} onClick={() => void drift.refetch()}>
          {networkHistoryMessages.histRetry}
        </Button>
      </Flex>
    );
  }
  const data = drift.data?.data;
  if (!data) return null;
  if (data.changes.length === 0) return <Alert type="success" showIcon role="status" title={fmt(C.codeDriftNone, { version: data.applied_version })} />;
  return <Drifted drift={data} />;
}
