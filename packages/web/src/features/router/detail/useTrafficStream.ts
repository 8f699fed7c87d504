import { CODE, consoleTrafficMessage, LIMITS, ROUTER_TRAFFIC_STREAM } from '@hublink/contract';
import { useEffect, useState } from 'react';
import { API_BASE } from '../../../api/client';
import { session } from '../../../api/session';
import { addPoints, type TrafficSeries } from './traffic';

/** Where the live stream stands (spec 3 §4). */
export type StreamState =
  | { kind: 'connecting' }
  | { kind: 'open' }
  /** Closed by the network or the server's restart: a new connection follows after LIMITS.trafficReconnectMs. */
  | { kind: 'retrying' }
  /** The server refused or ended the stream (a non-200 message): no new connection. */
  | { kind: 'ended'; msg: string }
  /** The browser has no WebSocket. */
  | { kind: 'unsupported' };

/** ws(s)://host/api/v1/router/traffic?token=…&router_name=… on the console's own host. */
export function trafficStreamUrl(routerName: string, token: string, location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const query = new URLSearchParams({ [ROUTER_TRAFFIC_STREAM.tokenParam]: token, [ROUTER_TRAFFIC_STREAM.nameParam]: routerName });
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${API_BASE}${ROUTER_TRAFFIC_STREAM.path}?${query.toString()}`;
}

function parse(raw: unknown) {
  try {
    const m = consoleTrafficMessage.safeParse(JSON.parse(String(raw)));
    return m.success ? m.data : null;
  } catch {
    return null;
  }
}

/**
 * The member's live traffic: each interface's latest points and the stream's state. A closed
 * connection is opened again after 10 s with the session's current token; a non-200 message ends
 * the stream for good.
 */
export function useTrafficStream(routerName: string, enabled = true): { series: TrafficSeries; state: StreamState } {
  const [series, setSeries] = useState<TrafficSeries>({});
  const [state, setState] = useState<StreamState>({ kind: 'connecting' });

  useEffect(() => {
    if (!enabled || routerName === '') return;
    if (typeof WebSocket === 'undefined') {
      setState({ kind: 'unsupported' });
      return;
    }
    let stopped = false;
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;

    const connect = () => {
      setState({ kind: 'connecting' });
      const ws = new WebSocket(trafficStreamUrl(routerName, session.token() ?? ''));
      socket = ws;
      ws.onmessage = (ev: MessageEvent) => {
        const m = parse(ev.data);
        if (!m || stopped) return;
        if (m.code !== CODE.ok) {
          stopped = true;
          setState({ kind: 'ended', msg: m.msg ?? '' });
          ws.close();
          return;
        }
        setState((s) => (s.kind === 'open' ? s : { kind: 'open' }));
        const points = m.data;
        if (points?.length) setSeries((s) => addPoints(s, points));
      };
      ws.onclose = () => {
        if (stopped || socket !== ws) return;
        setState({ kind: 'retrying' });
        retry = setTimeout(connect, LIMITS.trafficReconnectMs);
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      socket?.close();
      // Another router's page (or none) starts from empty charts.
      setSeries({});
    };
  }, [routerName, enabled]);

  return { series, state };
}
