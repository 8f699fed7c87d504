import { M } from '@hublink/contract';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../core/errors';
import { CHANGE_TOOLS } from './changeTools';
import { READ_TOOLS } from './readTools';
import { toolRefusal, type Caller } from './rest';
import type { McpTool } from './tool';

/** Every tool of the endpoint, in the order tools/list gives them. */
export const MCP_TOOLS: McpTool[] = [...READ_TOOLS, ...CHANGE_TOOLS];

const SERVER_INFO = { name: 'hublink', title: 'HubLink', version: '1.0.0' };

const INSTRUCTIONS =
  "HubLink's networks, members, live status, diagnosis and logs, for the tenant of the API token. Tools that change something " +
  '(change_setting, remove_member, rollback_network, apply_network_document) take two calls: the first changes nothing and answers ' +
  'the plan with a plan_id; show the plan to the user, and only when they agree call the same tool with the same arguments and ' +
  'confirm: plan_id. Refusals are in Chinese, as the console shows them.';

/** A tool's run, with any refusal as its answer: an ApiError's message, or (logged) the generic one. */
async function guarded(caller: Caller, tool: McpTool, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    return await tool.run(caller, args);
  } catch (err) {
    if (err instanceof ApiError) return toolRefusal(err.message);
    caller.log.error({ err, tool: tool.name, tenantId: caller.actor.tenantId }, 'mcp: tool failed');
    return toolRefusal(M.internalError);
  }
}

/** An MCP server for one request of one caller (the endpoint is stateless: a server per request). */
export function mcpServerFor(caller: Caller): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  for (const tool of MCP_TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: tool.annotations },
      (args: Record<string, unknown>) => guarded(caller, tool, args),
    );
  }
  return server;
}
