import { CODE, fmt, LIMITS, networkPreviewMessages as P, previewNetworkChange, type PreviewablePath, type PreviewAnswer, type PreviewReach, type ReachRefusal } from '@hublink/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Flex, List, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { call } from '../../api/client';
import { EnvelopeError } from '../../api/hooks';

/*
 * 保存前预览 (issue 36): under a settings dialog's fields, what saving the change would do, asked of
 * the server as the user edits (it makes the change and rolls it back): members whose configuration
 * changes, members and LANs that lose or gain reachability, and a warning when the change cuts off
 * the member the user's own connection comes through. Nothing is shown while the form is unchanged.
 */

const WHY: Record<ReachRefusal, string> = {
  'no-route': P.previewWhyNoRoute,
  denied: P.previewWhyDenied,
  unreachable: P.previewWhyUnreachable,
  outside: P.previewWhyOutside,
  loop: P.previewWhyLoop,
  down: P.previewWhyDown,
};

/** Waits for the value to rest this long before asking (each answer compiles the network twice). */
const QUIET_MS = 400;
const MEMBERS_SHOWN = 12;
const BUSY_RETRIES = 10;
const BUSY_RETRY_MS = 500;

function useSettled<T>(value: T): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), QUIET_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- by content: a new object with the same body is the same change
  }, [key]);
  return settled;
}

const siteLabel = (r: PreviewReach) => {
  if (r.to.internet) return P.previewInternet;
  if (r.to.prefix === null) return fmt(P.previewOwnAddress, { name: r.to.member });
  const prefix = r.to.denied ? fmt(P.previewDenied, { prefix: r.to.prefix }) : r.to.prefix;
  return `${r.to.member} ${prefix}`;
};

function ReachRow({ r }: { r: PreviewReach }) {
  return (
    <List.Item style={{ padding: '4px 0' }}>
      <Flex gap={8} wrap align="baseline" style={{ width: '100%' }}>
        <Tag color={r.gained ? 'green' : 'red'} style={{ marginInlineEnd: 0 }}>
          {r.state === '' ? P.previewStateNormal : fmt(P.previewStateDown, { name: r.state })}
        </Tag>
        <Typography.Text>
          {r.from} → {siteLabel(r)}
        </Typography.Text>
        {r.stop && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {fmt(P.previewStop, { name: r.stop.at, why: WHY[r.stop.why] })}
          </Typography.Text>
        )}
      </Flex>
    </List.Item>
  );
}

function Effect({ answer }: { answer: PreviewAnswer }) {
  const lost = (answer.reach ?? []).filter((r) => !r.gained);
  const gained = (answer.reach ?? []).filter((r) => r.gained);
  const nothing = answer.member_count === 0 && answer.reach_count === 0;
  return (
    <Flex vertical gap={8}>
      {answer.viewer?.cut && <Alert type="error" showIcon message={fmt(P.previewViewerCut, { name: answer.viewer.router_name })} />}
      {answer.viewer && !answer.viewer.cut && <Typography.Text type="secondary">{fmt(P.previewViewerAffected, { name: answer.viewer.router_name })}</Typography.Text>}
      {nothing && <Alert type="success" showIcon message={P.previewNothing} />}
      {answer.member_count > 0 && (
        <div>
          <Typography.Text>{fmt(P.previewMembers, { n: answer.member_count })}</Typography.Text>
          <Flex gap={4} wrap style={{ marginTop: 4 }}>
            {answer.members.slice(0, MEMBERS_SHOWN).map((m) => (
              <Tag key={m.router_name} color={m.change === 'added' ? 'green' : m.change === 'removed' ? 'red' : undefined}>
                {m.router_name}
                {m.change !== 'changed' && ` · ${m.change === 'added' ? P.previewMemberAdded : P.previewMemberRemoved}`}
              </Tag>
            ))}
            {answer.member_count > MEMBERS_SHOWN && <Typography.Text type="secondary">{fmt(P.previewMore, { n: answer.member_count - MEMBERS_SHOWN })}</Typography.Text>}
          </Flex>
        </div>
      )}
      {answer.reach === null && <Alert type="info" showIcon message={fmt(P.previewReachTooLarge, { n: LIMITS.previewReachMaxMembers })} />}
      {answer.reach !== null && answer.member_count > 0 && answer.reach_count === 0 && <Typography.Text type="secondary">{P.previewReachSame}</Typography.Text>}
      {lost.length > 0 && (
        <div>
          <Typography.Text type="danger">{fmt(P.previewReachLost, { n: lost.length })}</Typography.Text>
          <List size="small" dataSource={lost} renderItem={(r) => <ReachRow r={r} />} style={{ maxHeight: 180, overflowY: 'auto' }} />
        </div>
      )}
      {gained.length > 0 && (
        <div>
          <Typography.Text type="success">{fmt(P.previewReachGained, { n: gained.length })}</Typography.Text>
          <List size="small" dataSource={gained} renderItem={(r) => <ReachRow r={r} />} style={{ maxHeight: 140, overflowY: 'auto' }} />
        </div>
      )}
      {answer.reach !== null && answer.reach_count > answer.reach.length && <Typography.Text type="secondary">{fmt(P.previewMore, { n: answer.reach_count - answer.reach.length })}</Typography.Text>}
    </Flex>
  );
}

/** The preview of one settings call with this body (without network_number); null while nothing is changed. */
export function ChangePreview({ networkNumber, path, body }: { networkNumber: string; path: PreviewablePath; body: Record<string, unknown> | null }) {
  const settled = useSettled(body);
  const preview = useQuery<PreviewAnswer, EnvelopeError>({
    queryKey: [previewNetworkChange.path, networkNumber, path, settled],
    enabled: settled !== null,
    // The server computes one preview per tenant at a time: a change made while the last one was still
    // being compared is asked again shortly; any other refusal is shown as it is.
    retry: (count, err) => err.envelope.code === CODE.tooMany && count < BUSY_RETRIES,
    retryDelay: BUSY_RETRY_MS,
    staleTime: 0,
    gcTime: 0,
    queryFn: async () => {
      const env = await call(previewNetworkChange, { body: { network_number: networkNumber, path, body: settled! } }, { quiet: true, timeoutMs: LIMITS.requestTimeoutMs * 3 });
      if (env.code !== CODE.ok || !env.data) throw new EnvelopeError(env);
      return env.data;
    },
  });
  if (body === null) return null;
  const waiting = JSON.stringify(settled) !== JSON.stringify(body) || preview.isFetching;
  return (
    <section aria-label={P.previewTitle} style={{ marginTop: 8, paddingTop: 8, borderTop: '1px solid rgba(5, 5, 5, 0.06)' }}>
      <Typography.Text strong>{P.previewTitle}</Typography.Text>
      <div style={{ marginTop: 8 }} aria-live="polite" aria-busy={waiting}>
        {waiting && !preview.data ? (
          <Flex gap={8} align="center">
            <Spin size="small" />
            <Typography.Text type="secondary">{P.previewLoading}</Typography.Text>
          </Flex>
        ) : preview.error ? (
          <Alert type="warning" showIcon message={fmt(P.previewFailed, { reason: preview.error.message })} />
        ) : preview.data ? (
          <Spin spinning={waiting} size="small">
            <Effect answer={preview.data} />
          </Spin>
        ) : null}
      </div>
    </section>
  );
}
