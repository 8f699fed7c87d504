import type { z } from 'zod';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from './rest';

/** One tool of the MCP endpoint: what tools/list says of it, and what tools/call does. */
export interface McpTool {
  /** snake_case, as assistants call it. */
  name: string;
  title: string;
  /** For the assistant: what the tool answers and when to use it. */
  description: string;
  /** The arguments, built from the contract's schemas (the same rules and messages as the REST call). */
  input: z.ZodObject;
  annotations: ToolAnnotations;
  /** Runs with the arguments the input schema parsed; a refusal may be thrown as an ApiError. */
  run: (caller: Caller, args: Record<string, unknown>) => Promise<CallToolResult>;
}
