import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { CODE, M } from '@hublink/contract';
import { SECURITY_HEADERS } from './security';

/** The parser's refusals, by Node's error code: the HTTP status and what the envelope says. */
function refusalOf(code: string | undefined): { status: number; msg: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, msg: M.requestTooLarge };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, msg: M.requestTimeout };
  return { status: 400, msg: M.requestMalformed };
}

/**
 * Fastify's clientErrorHandler: Node's HTTP parser refused the bytes (a URL or headers over 16 KB, a
 * request line that is not HTTP, a request that never finished), so there is no request to route and
 * nothing answers but this. It answers in the envelope too, with the parser's HTTP status (the
 * connection closes after it), and the headers every answer carries. When the bad bytes followed a good
 * request on the same connection (pipelined), the refusal waits for that request's answer, as HTTP/1.1
 * orders answers; writing it at once cut that answer off.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.writableFinished) {
    // Node may end the connection after that answer (Connection: close): then nothing more is said.
    inFlight.once('finish', () => setImmediate(() => refuse(err, socket)));
    return;
  }
  refuse(err, socket);
}

function refuse(err: Error & { code?: string }, socket: Socket): void {
  if (socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, msg } = refusalOf(err.code);
  const body = JSON.stringify({ code: CODE.invalid, msg });
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
      'Cache-Control: no-store',
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
