import { DeviceClient, SimulatedDevice } from '@hublink/agent';

/**
 * The reference agent (packages/agent) in this process, signed in as hardware member `name`: for tests
 * of a module that needs a router online (LDAP private mode relays through it). Stop it with stop().
 */
export function startRouterAgent(url: string, name: string, secret: string): DeviceClient {
  const client = new DeviceClient({ url, identity: { kind: 'router', router_name: name }, secret, device: new SimulatedDevice({ kind: 'router', name }), log: () => {} });
  client.start();
  return client;
}
