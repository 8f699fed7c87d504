import { parseArgs } from 'node:util';
import { applyNetwork, CODE, endpointUrl, exportNetwork, fmt, LIMITS, M, NETWORK_DOCUMENT_FORMATS, planNetwork, type DataOf, type Endpoint, type NetworkDocumentFormat } from '@hublink/contract';
import type { z } from 'zod';
import { cliPath, FILE_ERRORS, readAtMost } from '../ops/files';
import { applyText, planText } from '../ops/networkPlanText';

/*
 * `hublink network export|plan|apply`: the tenant's side of networks as code (issue 36,
 * docs/as-code.md). It calls a running server's API with a personal API token and prints what
 * `hublink ops network` prints. It loads the contract and fetch, never the server (main.ts).
 */

export interface ClientIo {
  env: Record<string, string | undefined>;
  out(text: string): void;
  err(text: string): void;
}

/** Exit codes as `hublink ops` has them: 0 done, 1 refused or unreachable, 2 bad usage or input. */
const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

/** A plan compares the network before and after; a large one takes seconds (docs/decisions.md, issue 36). */
const TIMEOUT_MS = 120_000;

export const NETWORK_CLIENT_USAGE = `usage: hublink network <command> [options]
  export --network NUMBER [--format yaml|json]   print a network as a document
  plan FILE [--network NUMBER]                   what applying FILE would change (a new network without --network); changes nothing
  apply FILE [--network NUMBER]                  make the network what FILE says (a new network without --network)
options:
  --server URL   the HubLink server, e.g. https://hublink.example.com (default: $HUBLINK_SERVER)
  --json         print the API's data as JSON
The personal API token is read from $HUBLINK_TOKEN only, never from the command line, so that it stays
out of the shell's history and the process list.`;

type Invocation =
  | { command: 'export'; server: URL; token: string; json: boolean; network: string; format: NetworkDocumentFormat }
  | { command: 'plan' | 'apply'; server: URL; token: string; json: boolean; network: string | undefined; file: string };

/** A refusal, an unreachable server or bad input: one line for the user, and its exit code. */
class ClientError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.refused,
  ) {
    super(message);
  }
}

const usageError = (message: string) => new ClientError(`${message}\n${NETWORK_CLIENT_USAGE}`, EXIT.usage);

const OPTIONS = { server: { type: 'string' }, network: { type: 'string' }, format: { type: 'string' }, json: { type: 'boolean' } } as const;

function parsedArgs(args: string[]) {
  try {
    return parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    throw usageError((e as Error).message);
  }
}

function invocationOf(argv: string[], env: ClientIo['env']): Invocation {
  const [command, ...rest] = argv;
  if (command !== 'export' && command !== 'plan' && command !== 'apply') throw usageError(command ? `unknown command '${command}'` : 'a command is required');
  if (rest.some((a) => a === '--token' || a.startsWith('--token='))) throw usageError('the API token is read from $HUBLINK_TOKEN, never from the command line');
  const { values, positionals } = parsedArgs(rest);
  const serverText = values.server ?? env.HUBLINK_SERVER ?? '';
  if (serverText === '') throw usageError('give the server with --server URL or $HUBLINK_SERVER');
  const server = URL.canParse(serverText) ? new URL(serverText) : null;
  if (!server || (server.protocol !== 'http:' && server.protocol !== 'https:')) throw usageError(`--server: ${serverText} is not an http(s) URL`);
  const token = env.HUBLINK_TOKEN?.trim() ?? '';
  if (token === '') throw usageError('set $HUBLINK_TOKEN to a personal API token');
  const common = { server, token, json: values.json === true };

  if (command === 'export') {
    if (positionals.length > 0) throw usageError(`unexpected argument '${positionals[0]}'`);
    if (!values.network) throw usageError('export needs --network NUMBER');
    const format = values.format ?? 'yaml';
    if (!(NETWORK_DOCUMENT_FORMATS as readonly string[]).includes(format)) throw usageError('--format: yaml or json');
    return { command, ...common, network: values.network, format: format as NetworkDocumentFormat };
  }
  if (values.format !== undefined) throw usageError('--format is for export');
  if (positionals.length !== 1) throw usageError(positionals.length === 0 ? `${command} needs a FILE` : `unexpected argument '${positionals[1]}'`);
  return { command, ...common, network: values.network, file: positionals[0]! };
}

/** The document in FILE; one that cannot be read or is longer than the API takes is bad input. */
function documentIn(file: string): string {
  let text: string;
  try {
    // A character is at most 4 bytes: a file longer than this is too long whatever it holds, and is not read further.
    text = readAtMost(cliPath(file), LIMITS.networkDocumentMax * 4 + 1).toString('utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    throw new ClientError(`cannot read ${file}: ${FILE_ERRORS[code] ?? (e as Error).message}`, EXIT.usage);
  }
  // Past this the request would outgrow the server's body limit, which answers no envelope.
  if (text.length > LIMITS.networkDocumentMax) throw new ClientError(fmt(M.codeDocumentTooLarge, { n: LIMITS.networkDocumentMax }), EXIT.usage);
  return text;
}

const NETWORK_ERRORS: Record<string, string> = { ECONNREFUSED: 'connection refused', ENOTFOUND: 'no such host', ECONNRESET: 'connection reset', ETIMEDOUT: 'timed out', EHOSTUNREACH: 'host unreachable' };

function unreachable(server: URL, e: unknown): ClientError {
  if (e instanceof Error && e.name === 'TimeoutError') return new ClientError(`hublink: ${server.origin} did not answer within ${TIMEOUT_MS / 1000} s`);
  // fetch fails with 'fetch failed'; why is in its cause.
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const why = (cause?.code && NETWORK_ERRORS[cause.code]) || cause?.code || cause?.message || (e as Error).message;
  return new ClientError(`hublink: cannot reach ${server.origin}: ${why}`);
}

/** Calls an endpoint of the contract; answers its data, or throws the server's refusal or why it could not be asked. */
async function call<E extends Endpoint & { response: z.ZodType }>(run: Invocation, endpoint: E, input: { query?: Record<string, string>; body?: unknown }): Promise<DataOf<E>> {
  const url = new URL(`${run.server.pathname.replace(/\/+$/, '')}${endpointUrl(endpoint)}`, run.server);
  if (input.query) url.search = new URLSearchParams(input.query).toString();
  let res: Response;
  try {
    res = await fetch(url, {
      method: endpoint.method,
      headers: { authorization: `Bearer ${run.token}`, accept: 'application/json', ...(input.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
      // A redirect would drop the token (another origin) or turn the POST into a GET: say where it goes instead.
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (e) {
    throw unreachable(run.server, e);
  }
  if (res.status >= 300 && res.status < 400) throw new ClientError(`hublink: ${run.server.origin} redirects to ${res.headers.get('location') ?? '?'}: give that address with --server`);
  const envelope = (await res.json().catch(() => null)) as { code?: unknown; msg?: unknown; data?: unknown } | null;
  if (typeof envelope?.code !== 'number' || typeof envelope.msg !== 'string') {
    throw new ClientError(`hublink: ${run.server.origin} answered HTTP ${res.status}, not as a HubLink server does`);
  }
  if (envelope.code !== CODE.ok) throw new ClientError(envelope.msg);
  const data = endpoint.response.safeParse(envelope.data);
  if (!data.success) throw new ClientError(`hublink: ${run.server.origin} answered in a form this client does not read (another version of HubLink?)`);
  return data.data as DataOf<E>;
}

async function perform(run: Invocation): Promise<string> {
  const shown = (data: unknown, text: string) => (run.json ? JSON.stringify(data, null, 2) : text);
  if (run.command === 'export') {
    const exported = await call(run, exportNetwork, { query: { network_number: run.network, format: run.format } });
    return shown(exported, exported.document.replace(/\n$/, ''));
  }
  const body = { ...(run.network === undefined ? {} : { network_number: run.network }), document: documentIn(run.file) };
  if (run.command === 'plan') {
    const plan = await call(run, planNetwork, { body });
    return shown(plan, planText(plan));
  }
  const applied = await call(run, applyNetwork, { body });
  return shown(applied, applyText(applied));
}

/** Runs `hublink network …` with these arguments; answers the exit code. */
export async function runNetworkClient(argv: string[], io: ClientIo): Promise<number> {
  if (argv.length === 0) {
    io.err(NETWORK_CLIENT_USAGE);
    return EXIT.usage;
  }
  if (argv[0] === 'help' || argv.includes('--help')) {
    io.out(NETWORK_CLIENT_USAGE);
    return EXIT.ok;
  }
  try {
    io.out(await perform(invocationOf(argv, io.env)));
    return EXIT.ok;
  } catch (e) {
    if (!(e instanceof ClientError)) throw e;
    io.err(e.message);
    return e.exitCode;
  }
}
