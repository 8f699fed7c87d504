import { fmt, M } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { formatTime } from '../../core/time';
import { buildRequest } from './providers';
import { NAMES_MAX, summaryOf, type GroupedAlert } from './summary';

/*
 * What a webhook message says about the alerts of one window: one alert as itself; several as a
 * summary per kind with a bounded list of names, "等 N 台" beyond it, and the window's times; the
 * 'other' provider's JSON lists every alert. Each provider's message stays within its size limit.
 */

const TZ = 'Asia/Shanghai';
const T0 = Date.UTC(2026, 10, 30, 2, 0, 0);

const offline = (i: number): GroupedAlert => ({
  alert_id: 100 + i,
  kind: 'router_offline',
  title: fmt(M.alertTitle, { kind: M.alertKindRouterOffline, name: `dev${i}` }),
  text: `设备 dev${i} 离线。`,
  router_name: `dev${i}`,
  at: T0 + i * 1000,
});

describe('webhook summaries', () => {
  it('sends a lone alert as itself', () => {
    const a = offline(1);
    expect(summaryOf([a], TZ)).toEqual({ event: 'router_offline', title: a.title, text: a.text, router_name: 'dev1', at: a.at, time: formatTime(a.at, TZ), alert_id: 101 });
  });

  it('sums up a window: counts per kind, the first names, "等 N 台", the times, every alert for the JSON receiver', () => {
    const alerts = [...Array.from({ length: 12 }, (_, i) => offline(i)), { ...offline(50), kind: 'router_online', router_name: 'back1', alert_id: 999 }];
    const m = summaryOf(alerts, TZ);
    expect(m.title).toBe(fmt(M.alertSummaryTitle, { count: 13 }));
    const names = Array.from({ length: NAMES_MAX }, (_, i) => `dev${i}`).join(M.alertSummaryNameSep);
    expect(m.text.split('\n\n')).toEqual([
      fmt(M.alertSummaryKind, { kind: M.alertKindRouterOffline, count: 12, names: `${names}${fmt(M.alertSummaryMore, { count: 12 })}` }),
      fmt(M.alertSummaryKind, { kind: M.alertKindRouterOnline, count: 1, names: 'back1' }),
      fmt(M.alertSummaryWindow, { from: formatTime(T0, TZ), to: formatTime(T0 + 50_000, TZ) }),
    ]);
    expect(m.alerts).toHaveLength(13);
    expect(m.alerts!.map((a) => a.alert_id)).toEqual(alerts.map((a) => a.alert_id));
  });

  it('keeps a summary of 200 long names within WeCom’s 4096 bytes and DingTalk’s 20000', () => {
    const alerts = Array.from({ length: 200 }, (_, i) => ({ ...offline(i), router_name: `${'机'.repeat(60)}${i}` }));
    const m = summaryOf(alerts, TZ);
    const wecom = JSON.parse(buildRequest({ type: 'wecom', url: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k', secret: '' }, m).body) as { markdown: { content: string } };
    expect(Buffer.byteLength(wecom.markdown.content)).toBeLessThan(4096);
    const ding = JSON.parse(buildRequest({ type: 'dingtalk', url: 'https://oapi.dingtalk.com/robot/send?access_token=t', secret: '' }, m).body) as { markdown: { text: string } };
    expect(Buffer.byteLength(ding.markdown.text)).toBeLessThan(20000);
  });
});
