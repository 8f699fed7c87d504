// The lab's lighter entry to `hublink agent` (test/agentProcess.ts, entry 'agent'): the same command,
// runAgentCommand of @hublink/agent, without main.ts importing the whole server first (about 1 s to
// start instead of 5 on a loaded 2-core machine). Arguments as after `hublink agent`.
import { register } from 'tsx/esm/api';

register();
const { runAgentCommand } = await import('@hublink/agent');
process.exitCode = await runAgentCommand(process.argv.slice(2));
