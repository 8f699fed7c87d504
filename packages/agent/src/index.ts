/**
 * The reference device agent and the simulator (issue 13). The server's CLI runs them (`hublink agent`,
 * `hublink simulate`); tests and the bench call simulate() or DeviceClient directly.
 */
import { DEVICE_PROTOCOL } from '@hublink/contract';

/** The protocol version the agent's hello names. */
export const AGENT_PROTOCOL_VERSION = DEVICE_PROTOCOL.current;

export { AGENT_VERSION } from './version';
export { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
export { DeviceClient, deviceUrl, type ClientOptions, type ClientState, type Failure, type Identity } from './client';
export type { Device, DeviceEvents, DeviceIdentity, DeviceSession, FlowSample, TrafficSample } from './device';
export { Scheduler, sharedScheduler, type Scheduled } from './scheduler';
export { SimulatedDevice, type SimulatedOptions } from './simulated';
export { loopbackAddress, simulate, type SimulatedMember, type SimulateOptions, type Simulation, type SimulationCounts } from './simulator';
export { findOpenvpn, OpenvpnDevice, type OpenvpnDeviceOptions } from './openvpn/device';
export { plannedLinks, type PlannedLink } from './plan';
export { AGENT_USAGE, RELAY_USAGE, runAgentCommand, runRelayCommand, runSimulateCommand, SIMULATE_USAGE } from './cli';
export { signInWithSource, type SourceSignIn, type SourceSignInOptions } from './authSource';
export { Forwarder, type ForwarderLoad } from './relay/forwarder';
export { Relay, type RelayOptions } from './relay/relay';
