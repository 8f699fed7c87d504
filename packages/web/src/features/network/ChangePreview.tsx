import { CODE, fmt, LIMITS, networkPreviewMessages as P, previewNetworkChange, type PreviewablePath, type PreviewAnswer } from '@hublink/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Flex, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { call } from '../../api/client';
import { EnvelopeError } from '../../api/hooks';
import { EffectList } from '../../components/EffectList';

/*
 * 保存前预览 (issue 36): under a settings dialog's fields, what saving the change would do, asked of
 * the server as the user edits (it makes the change and rolls it back): members whose configuration
 * changes, members and LANs that lose or gain reachability, and a warning when the change cuts off
 * the member the user's own connection comes through. Nothing is shown while the form is unchanged.
 */

/** A confirmation (Popconfirm) with a preview in it: readable, and no wider than a phone's screen. */
export const PREVIEW_POPCONFIRM_STYLES = { root: { maxWidth: 'min(360px, calc(100vw - 32px))' } };

/** Waits for the value to rest this long before asking (each answer compiles the network twice). */
const QUIET_MS = 400;
const BUSY_RETRIES = 10;
const BUSY_RETRY_MS = 500;

/** The value once it has rested; null until then (a dialog's first render may still hold the closed form's empty values). */
function useSettled<T>(value: T): T | null {
  const [settled, setSettled] = useState<T | null>(null);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), QUIET_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- by content: a new object with the same body is the same change
  }, [key]);
  return settled;
}

function Effect({ answer }: { answer: PreviewAnswer }) {
  return (
    <Flex vertical gap={8}>
      {answer.viewer?.cut && <Alert type="error" showIcon message={fmt(P.previewViewerCut, { name: answer.viewer.router_name })} />}
      {answer.viewer && !answer.viewer.cut && <Typography.Text type="secondary">{fmt(P.previewViewerAffected, { name: answer.viewer.router_name })}</Typography.Text>}
      <EffectList effect={answer} tense="will" />
    </Flex>
  );
}

/**
 * The answer's box: room for a short answer from the start and a scrollbar past a long one, so the
 * dialog's buttons move as little as possible when an answer comes in.
 */
const ANSWER_STYLE = { marginTop: 8, minHeight: 72, maxHeight: 240, overflowY: 'auto' } as const;

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
    // The last answer stays (dimmed) while the next is computed: the dialog does not shrink and grow under the user's click.
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const env = await call(previewNetworkChange, { body: { network_number: networkNumber, path, body: settled! } }, { quiet: true, successToast: false, timeoutMs: LIMITS.requestTimeoutMs * 3 });
      if (env.code !== CODE.ok || !env.data) throw new EnvelopeError(env);
      return env.data;
    },
  });
  if (body === null) return null;
  const waiting = JSON.stringify(settled) !== JSON.stringify(body) || preview.isFetching;
  return (
    <section aria-label={P.previewTitle} style={{ marginTop: 8, paddingTop: 8, borderTop: '1px solid rgba(5, 5, 5, 0.06)' }}>
      <Typography.Text strong>{P.previewTitle}</Typography.Text>
      <div style={ANSWER_STYLE} aria-live="polite" aria-busy={waiting}>
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
