import { z } from 'zod';
import {
  applyNetwork,
  compareNetworkVersions,
  CURRENT_VERSION,
  M,
  networkMembers,
  networkStatus,
  planNetwork,
  PREVIEWABLE,
  previewNetworkChange,
  removeNetworkMember,
  rollbackNetwork,
  type Endpoint,
  type NetworkMember,
  type VersionDiff,
} from '@hublink/contract';
import { authorizeCall } from '../core/guard';
import { argumentsDigest, issuePlan, PLAN_TTL_SECONDS, redeemPlan } from './confirm';
import { callRest, toolAnswer, toolRefusal, type Caller, type RestAnswer } from './rest';
import type { McpTool } from './tool';

/*
 * The tools that change something, each in two steps (confirm.ts): without `confirm` the tool checks
 * the change is the token's to make (the REST guard's own check), runs the change's plan (a preview,
 * a document's plan, a comparison with the version, or a description) and answers it with a plan id;
 * with `confirm` it makes the one REST call that changes, which validates, refuses and audits (as the
 * token) exactly as for any other caller.
 */

interface ChangeTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  /** The REST call that makes the change. */
  target: (args: Record<string, unknown>) => { endpoint: Endpoint; body: Record<string, unknown> };
  /** What the change would do: the first step's answer. */
  plan: (caller: Caller, args: Record<string, unknown>) => Promise<RestAnswer>;
}

const confirmField = z.string().max(64).optional().describe('The plan_id the same call answered without confirm; makes the change.');

const NEXT_STEP = (tool: string, planId: string) =>
  `Nothing has changed yet. Show this plan to the user; to make the change, call ${tool} again with the same arguments and confirm: "${planId}" within ${PLAN_TTL_SECONDS / 60} minutes.`;

/** The two steps around a change tool. */
function twoStep(tool: ChangeTool): McpTool {
  return {
    name: tool.name,
    title: tool.title,
    description: `${tool.description} Two steps: without confirm nothing changes and the answer is the plan with a plan_id; the same call with confirm: plan_id makes the change.`,
    input: tool.input.extend({ confirm: confirmField }),
    annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async (caller, all) => {
      const { confirm, ...args } = all;
      const tokenId = caller.actor.apiTokenId!;
      const digest = argumentsDigest(tool.name, args);
      const { endpoint, body } = tool.target(args);
      if (typeof confirm !== 'string') {
        // A change the token may not make is refused now, with the guard's message, not after a plan.
        authorizeCall(caller.actor, endpoint, typeof body.network_number === 'string' ? body.network_number : undefined);
        const plan = await tool.plan(caller, args);
        if (!plan.ok) return toolRefusal(plan.msg);
        const planId = await issuePlan(caller.store, tokenId, digest);
        return toolAnswer({ plan_id: planId, expires_in_seconds: PLAN_TTL_SECONDS, plan: plan.data, next: NEXT_STEP(tool.name, planId) });
      }
      await redeemPlan(caller.store, confirm, tokenId, digest);
      const done = await callRest(caller, endpoint, body);
      return done.ok ? toolAnswer({ msg: done.msg, data: done.data }) : toolRefusal(done.msg);
    },
  };
}

const previewable = new Map<string, Endpoint>(PREVIEWABLE.map((e) => [e.path, e]));

const changeSetting: ChangeTool = {
  name: 'change_setting',
  title: 'Change a network setting',
  description:
    "Saves one of a network's settings: path is one of the network's settings calls, body that call's body (network_number is taken from the tool's argument). The plan is preview_change's answer: which members' configurations change and who gains or loses reachability.",
  input: previewNetworkChange.body,
  target: (args) => ({ endpoint: previewable.get(String(args.path))!, body: { ...(args.body as Record<string, unknown>), network_number: args.network_number } }),
  plan: (caller, args) => callRest(caller, previewNetworkChange, args),
};

/** remove_member's plan: the member as the network has it, and its links. */
async function describeRemoval(caller: Caller, args: Record<string, unknown>): Promise<RestAnswer> {
  const members = await callRest(caller, networkMembers, { network_number: args.network_number });
  if (!members.ok) return members;
  const name = String(args.router_name).toLowerCase();
  const member = (members.data as NetworkMember[]).find((m) => m.router_name.toLowerCase() === name);
  if (!member) return { ok: false, msg: M.networkMemberNotIn };
  const status = await callRest(caller, networkStatus, { network_number: args.network_number, router_name: member.router_name });
  if (!status.ok) return status;
  const links = status.data as { link_count: number; link_up?: number };
  return {
    ok: true,
    msg: status.msg,
    data: { network_number: args.network_number, remove: member, links: { count: links.link_count, up: links.link_up ?? 0 }, members_left: (members.data as NetworkMember[]).length - 1 },
  };
}

const removeMember: ChangeTool = {
  name: 'remove_member',
  title: 'Remove a member from a network',
  description: 'Removes a member (router_name) from a network; its links in the network go with it. The plan names the member, its role in the network and its links.',
  input: removeNetworkMember.body,
  target: (args) => ({ endpoint: removeNetworkMember, body: args }),
  plan: describeRemoval,
};

/** rollback_network's plan: what differs between the network now and the version, field by field. */
async function compareWithVersion(caller: Caller, args: Record<string, unknown>): Promise<RestAnswer> {
  const diff = await callRest(caller, compareNetworkVersions, { network_number: args.network_number, a: CURRENT_VERSION, b: args.version });
  if (!diff.ok) return diff;
  const { rows, members } = diff.data as VersionDiff;
  return { ok: true, msg: diff.msg, data: { from: 'current', to_version: args.version, changes: rows.filter((r) => r.changed), members } };
}

const rollback: ChangeTool = {
  name: 'rollback_network',
  title: 'Roll a network back to a version',
  description:
    "Restores a network's settings and members to one of its versions (network_history lists them); the rollback is a new version itself. The plan is the comparison of the network now with that version: the fields that would change and the members added, removed and changed.",
  input: rollbackNetwork.body,
  target: (args) => ({ endpoint: rollbackNetwork, body: args }),
  plan: compareWithVersion,
};

const applyDocument: ChangeTool = {
  name: 'apply_network_document',
  title: 'Apply a network document',
  description:
    'Makes a network what a document says (YAML or JSON, as export_network_document gives it), all of it or nothing; without network_number it creates a new network. The plan is plan_network_document\'s answer.',
  input: applyNetwork.body,
  target: (args) => ({ endpoint: applyNetwork, body: args }),
  plan: (caller, args) => callRest(caller, planNetwork, args),
};

export const CHANGE_TOOLS: McpTool[] = [changeSetting, removeMember, rollback, applyDocument].map(twoStep);
