import { fmt, LIMITS, networkPreviewMessages as P, type ChangeEffect, type PreviewReach, type ReachRefusal } from '@hublink/contract';
import { Alert, Flex, List, Tag, Typography } from 'antd';

/*
 * What a settings change does (issue 36): the members whose configuration changes and the pairs that
 * lose or gain reachability. The preview shows it before the save ('will'); the version and the audit
 * entry the save wrote show it after ('did').
 */

const WHY: Record<ReachRefusal, string> = {
  'no-route': P.previewWhyNoRoute,
  denied: P.previewWhyDenied,
  unreachable: P.previewWhyUnreachable,
  outside: P.previewWhyOutside,
  loop: P.previewWhyLoop,
  down: P.previewWhyDown,
};

const TEXTS = {
  will: { nothing: P.previewNothing, members: P.previewMembers, lost: P.previewReachLost, gained: P.previewReachGained },
  did: { nothing: P.effectNothing, members: P.effectMembers, lost: P.effectReachLost, gained: P.effectReachGained },
} as const;

const MEMBERS_SHOWN = 12;

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

export function EffectList({ effect, tense }: { effect: ChangeEffect; tense: 'will' | 'did' }) {
  const t = TEXTS[tense];
  const lost = (effect.reach ?? []).filter((r) => !r.gained);
  const gained = (effect.reach ?? []).filter((r) => r.gained);
  const nothing = effect.member_count === 0 && effect.reach_count === 0;
  return (
    <Flex vertical gap={8}>
      {nothing && <Alert type="success" showIcon message={t.nothing} />}
      {effect.member_count > 0 && (
        <div>
          <Typography.Text>{fmt(t.members, { n: effect.member_count })}</Typography.Text>
          <Flex gap={4} wrap style={{ marginTop: 4 }}>
            {effect.members.slice(0, MEMBERS_SHOWN).map((m) => (
              <Tag key={m.router_name} color={m.change === 'added' ? 'green' : m.change === 'removed' ? 'red' : undefined}>
                {m.router_name}
                {m.change !== 'changed' && ` · ${m.change === 'added' ? P.previewMemberAdded : P.previewMemberRemoved}`}
              </Tag>
            ))}
            {effect.member_count > MEMBERS_SHOWN && <Typography.Text type="secondary">{fmt(P.previewMore, { n: effect.member_count - MEMBERS_SHOWN })}</Typography.Text>}
          </Flex>
        </div>
      )}
      {effect.reach === null && <Alert type="info" showIcon message={fmt(P.previewReachTooLarge, { n: LIMITS.previewReachMaxMembers })} />}
      {effect.reach !== null && effect.member_count > 0 && effect.reach_count === 0 && <Typography.Text type="secondary">{P.previewReachSame}</Typography.Text>}
      {lost.length > 0 && (
        <div>
          <Typography.Text type="danger">{fmt(t.lost, { n: lost.length })}</Typography.Text>
          <List size="small" dataSource={lost} renderItem={(r) => <ReachRow r={r} />} style={{ maxHeight: 180, overflowY: 'auto' }} />
        </div>
      )}
      {gained.length > 0 && (
        <div>
          <Typography.Text type="success">{fmt(t.gained, { n: gained.length })}</Typography.Text>
          <List size="small" dataSource={gained} renderItem={(r) => <ReachRow r={r} />} style={{ maxHeight: 140, overflowY: 'auto' }} />
        </div>
      )}
      {effect.reach !== null && effect.reach_count > effect.reach.length && <Typography.Text type="secondary">{fmt(P.previewMore, { n: effect.reach_count - effect.reach.length })}</Typography.Text>}
    </Flex>
  );
}
