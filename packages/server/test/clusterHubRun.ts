/**
 * Run by core/clusterHub.test.ts as a process of its own: a primary serving the hub and two workers.
 * Each worker subscribes, counts with the shared store, publishes one message and prints what it got
 * as one JSON line; the primary exits when both workers have.
 */
import cluster from 'node:cluster';
import { ClusterPubSub, ClusterStore, serveHub } from '../src/core/clusterHub';

const log = { error: (o: unknown, m: string) => console.error(m, o) } as never;

if (cluster.isPrimary) {
  const hub = serveHub(log);
  let left = 2;
  for (let i = 0; i < 2; i++) cluster.fork({ HUB_TEST_INDEX: String(i) });
  cluster.on('exit', (_w, code) => {
    if (code !== 0) process.exitCode = 1;
    if (--left === 0) void hub.close();
  });
} else {
  const index = Number(process.env.HUB_TEST_INDEX);
  const store = new ClusterStore();
  const pubsub = new ClusterPubSub(log);
  const got: unknown[] = [];
  await pubsub.subscribe('greetings', (m) => got.push(m));
  // Both workers are subscribed before either publishes: the counter reaches 2 only when both are.
  await store.incr('ready', 60);
  while (Number(await store.get('ready')) < 2) await new Promise((r) => setTimeout(r, 10));
  await pubsub.publish('greetings', { from: index });
  const counts = [await store.incr('counter', 60), await store.incr('counter', 60)];
  await store.set(`seen:${index}`, 'yes', 60);
  const taken = await store.take(`seen:${index}`);
  const takenAgain = await store.take(`seen:${index}`);
  while (got.length < 2) await new Promise((r) => setTimeout(r, 10));
  console.log(JSON.stringify({ index, got, counts, taken, takenAgain }));
  await store.close();
  await pubsub.close();
  process.disconnect();
}
