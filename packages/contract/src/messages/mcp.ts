/** The MCP endpoint for AI assistants (issue 36; ours: the spec has none). */
export const mcpMessages = {
  /** /api/mcp without a personal API token (none, or a console session's): 2001. */
  mcpApiTokenRequired: 'MCP 接口只接受个人 API 令牌（Authorization: Bearer hlk_…），请在 账号 → API 令牌 中创建',
  /** A destructive tool's confirm that names no live plan: unknown, used or past its time. */
  mcpPlanUnknown: '确认编号无效、已使用或已过期，请不带 confirm 重新调用以取得新的计划',
  /** A plan id another token obtained. */
  mcpPlanOtherToken: '此确认编号不是用当前令牌取得的，请用当前令牌重新取得计划',
  /** A plan id confirmed with other arguments (or by another tool) than those it was made for. */
  mcpPlanOtherArguments: '参数与确认编号的计划不一致，请用取得计划时的参数确认，或不带 confirm 重新调用',
} as const;
