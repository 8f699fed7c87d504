import cluster, { type Worker } from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { Config } from '../config';
import { listenForMetrics, type MetricsListener, type RenderMetrics } from './metricsServer';

/**
 * Metrics of HUBLINK_WORKERS processes: each worker keeps its own registry; the primary asks every
 * worker for its metrics (prom-client's AggregatorRegistry over node:cluster's IPC) and adds them up,
 * so one scrape sees the whole instance whichever way it comes in: the primary's metrics port, or the
 * main port with the token (the worker that takes the scrape asks the primary).
 */

const REQUEST = 'hublink:metrics-request';
const REPLY = 'hublink:metrics-reply';
/** prom-client gives up on a worker after 5 s; the worker waits a little longer for the primary. */
const REPLY_TIMEOUT_MS = 8000;

interface MetricsReply {
  type: typeof REPLY;
  id: number;
  contentType?: string;
  text?: string;
  error?: string;
}

/** In a worker: answer the primary's collection with this registry. */
export function shareWithPrimary(registry: Registry) {
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry(); // registers the worker's side of the collection
}

let nextId = 0;
const waiting = new Map<number, (reply: MetricsReply) => void>();
let listening = false;

/** In a worker: the metrics of every worker, summed by the primary. */
export const renderThroughPrimary: RenderMetrics = () => {
  if (!listening) {
    listening = true;
    process.on('message', (m: unknown) => {
      const reply = m as MetricsReply;
      if (reply?.type === REPLY) waiting.get(reply.id)?.(reply);
    });
  }
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error('the primary did not send the metrics in time'));
    }, REPLY_TIMEOUT_MS);
    waiting.set(id, (reply) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (reply.error !== undefined || reply.text === undefined) reject(new Error(reply.error ?? 'no metrics'));
      else resolve({ contentType: reply.contentType!, text: reply.text });
    });
    process.send!({ type: REQUEST, id });
  });
};

/** In the primary: sums the workers' metrics for the metrics port and for workers that took a scrape. */
export async function serveClusterMetrics(config: Pick<Config, 'metricsPort' | 'metricsHost' | 'metricsToken'>, log: Pick<FastifyBaseLogger, 'error' | 'info'>) {
  const aggregator = new AggregatorRegistry();
  const render: RenderMetrics = async () => ({ contentType: aggregator.contentType, text: await aggregator.clusterMetrics() });
  const onMessage = (worker: Worker, m: unknown) => {
    const req = m as { type?: unknown; id?: unknown };
    if (req?.type !== REQUEST || typeof req.id !== 'number') return;
    const id = req.id;
    render().then(
      ({ contentType, text }) => worker.isConnected() && worker.send({ type: REPLY, id, contentType, text }),
      (err: unknown) => {
        log.error({ err }, 'metrics: collecting the workers\' metrics failed');
        if (worker.isConnected()) worker.send({ type: REPLY, id, error: String(err) });
      },
    );
  };
  cluster.on('message', onMessage);
  let listener: MetricsListener | undefined;
  if (config.metricsPort !== undefined) listener = await listenForMetrics({ port: config.metricsPort, host: config.metricsHost, token: config.metricsToken }, render, log);
  return {
    async close() {
      cluster.off('message', onMessage);
      await listener?.close();
    },
  };
}
