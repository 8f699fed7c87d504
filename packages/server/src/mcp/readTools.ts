import { z } from 'zod';
import {
  connectLog,
  exportNetwork,
  listNetworks,
  listNetworkVersions,
  listRouters,
  networkInfo,
  networkStatus,
  onlineLog,
  pageQuery,
  planNetwork,
  previewNetworkChange,
  routerDiagnosis,
  routerInfo,
  type Endpoint,
} from '@hublink/contract';
import { answerOf, callRest } from './rest';
import type { McpTool } from './tool';

/*
 * The tools that change nothing: each is one call of the REST API, its arguments that call's query
 * (or body), its answer that call's data. preview_change and plan_network_document are POSTs that
 * change nothing; as for the REST API, a 'read' token cannot call them.
 */

/** A read tool that is exactly one call; `input` defaults to the call's own query or body schema. */
function readTool(t: { name: string; title: string; description: string; endpoint: Endpoint; input?: z.ZodObject }): McpTool {
  const input = t.input ?? ((t.endpoint.method === 'GET' ? t.endpoint.query : t.endpoint.body) as z.ZodObject | undefined) ?? z.object({});
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    input,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async (caller, args) => answerOf(await callRest(caller, t.endpoint, args)),
  };
}

const PAGED = 'Paged: answers {count, data}; page is 1-based, limit defaults to 10 (at most 100).';

/** The logs recent_logs reads: the devices' connections (connect) or the tunnels' sessions (online). */
const LOG_KINDS = ['connect', 'online'] as const;

const logsInput = z.object({
  log: z.enum(LOG_KINDS).default('connect'),
  router_name: onlineLog.query.shape.router_name,
  start_time: onlineLog.query.shape.start_time,
  end_time: onlineLog.query.shape.end_time,
  mode: connectLog.query.shape.mode,
  page: pageQuery.shape.page,
  limit: pageQuery.shape.limit,
});

/** recent_logs: one member's records are the connect log's search and the online log's router_name. */
const recentLogs: McpTool = {
  name: 'recent_logs',
  title: 'Recent logs',
  description:
    "A page of the logs, newest first. log 'connect' (default): devices connecting to and leaving the control plane (with mode 'p2p' or 'pop': the tunnel sessions with the connection that carried them); log 'online': tunnel sessions (mode 'p2p' default, or 'pop'). router_name narrows to one member; start_time and end_time are days (yyyy-MM-dd). " +
    PAGED,
  input: logsInput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: async (caller, args) => {
    const { log, router_name, ...rest } = args as z.output<typeof logsInput>;
    if (log === 'online') return answerOf(await callRest(caller, onlineLog, { ...rest, router_name }));
    return answerOf(await callRest(caller, connectLog, { ...rest, search: router_name }));
  },
};

export const READ_TOOLS: McpTool[] = [
  readTool({
    name: 'list_networks',
    title: 'List networks',
    description: `The networks the token may see (a role limited to some networks sees only those); search matches the name or the number. ${PAGED}`,
    endpoint: listNetworks,
  }),
  readTool({
    name: 'get_network',
    title: 'Network detail',
    description:
      'One network by network_number: its settings (routing, DNS, ciphers, POP, center link, interconnect), its members with their settings, and its links. For a large network pass member_page / link_page (and page_size) to get one page of members or links.',
    endpoint: networkInfo,
  }),
  readTool({
    name: 'network_status',
    title: 'Network live status',
    description:
      "A network's live state as the device gateway knows it: every link (up or down, VPN address, since), each member's online flag, and each device's configuration version versus the version it applied. With router_name, only that member's links.",
    endpoint: networkStatus,
  }),
  readTool({
    name: 'list_members',
    title: 'List members',
    description: `The tenant's members (routers and software clients): type 1 hardware routers (default), 2 software clients; search matches name and note; state 'online', 'behind' (configuration not yet applied) or 'offline_day'. ${PAGED}`,
    endpoint: listRouters,
  }),
  readTool({
    name: 'member_status',
    title: 'Member live status',
    description: 'One member by router_name: online or not and since when, its networks, its interfaces, model, version and traffic counters.',
    endpoint: routerInfo,
  }),
  readTool({
    name: 'diagnose_member',
    title: 'Diagnose a member',
    description:
      'Why a member is offline or degraded, from what the device gateway knows: the first cause that holds (never connected, wrong secret, disabled, certificate, heartbeat lost, tunnel down, failed over, configuration behind, healthy) with a sentence and its facts, and per network its configuration versions and tunnels.',
    endpoint: routerDiagnosis,
  }),
  recentLogs,
  readTool({
    name: 'network_history',
    title: 'Network configuration history',
    description: `A network's configuration versions, newest first: who made each, when, a summary and its reachability effect. rollback_network takes one of these versions. ${PAGED}`,
    endpoint: listNetworkVersions,
  }),
  readTool({
    name: 'export_network_document',
    title: 'Export a network as a document',
    description: "A network as a declarative document (format 'yaml' default, or 'json'), to edit and pass to plan_network_document or apply_network_document.",
    endpoint: exportNetwork,
  }),
  readTool({
    name: 'preview_change',
    title: 'Preview a settings change',
    description:
      "What a settings change would do, without saving it: path is one of the network's settings calls, body that call's body (network_number is taken from the tool's argument). Answers which members' configurations change and which members and LANs gain or lose reachability (normally and with each center down). change_setting makes the change.",
    endpoint: previewNetworkChange,
  }),
  readTool({
    name: 'plan_network_document',
    title: 'Plan a network document',
    description:
      'What applying a network document (YAML or JSON, as export_network_document gives it) would change, without changing anything: the changed fields, members added, removed and changed, the reachability effect, and the drift since the last applied document. Without network_number the document would create a new network.',
    endpoint: planNetwork,
  }),
];
