import { randomBytes } from 'node:crypto';
import { CODE, type Endpoint, type Envelope } from '@hublink/contract';
import { checkAnswer, type TestApp } from './helpers';

/** Posts one file as multipart field 'file' to an upload call, as the console does; a success is held to the call's contract. */
export async function uploadFile<T = unknown>(t: TestApp, endpoint: Endpoint, token: string, file: { filename: string; body: Buffer; contentType?: string }): Promise<Envelope<T>> {
  const boundary = `----hublink${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
    ),
    file.body,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1${endpoint.path}`,
    payload,
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  const env = res.json<Envelope<T>>();
  if (env.code === CODE.ok) checkAnswer(endpoint, env);
  return env;
}
