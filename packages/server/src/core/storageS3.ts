import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { objectPath, type Storage, type StoredObject, type StoredStream } from './storage';

export interface S3Location {
  client: S3Client;
  bucket: string;
}

/**
 * S3_URL is 'http(s)://ACCESS_KEY:SECRET@host[:port]/bucket[?region=…]': any S3-compatible service,
 * addressed path-style (bucket in the path), which every such service understands. Checksums are
 * sent only where a call requires them: several compatible services refuse the SDK's newer defaults.
 */
export function s3FromUrl(raw: string): S3Location {
  const url = new URL(raw);
  const bucket = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ''));
  if (!/^https?:$/.test(url.protocol) || !bucket || bucket.includes('/') || !url.username || !url.password) {
    throw new Error('S3_URL must look like https://ACCESS_KEY:SECRET@host[:port]/bucket[?region=…]');
  }
  const client = new S3Client({
    endpoint: `${url.protocol}//${url.host}`,
    region: url.searchParams.get('region') ?? 'us-east-1',
    credentials: { accessKeyId: decodeURIComponent(url.username), secretAccessKey: decodeURIComponent(url.password) },
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return { client, bucket };
}

const missing = (e: unknown) => e instanceof NoSuchKey || (e instanceof S3ServiceException && e.$metadata.httpStatusCode === 404);

export class S3Storage implements Storage {
  constructor(private readonly s3: S3Location) {}

  async put(tenantId: number, key: string, body: Buffer, contentType: string) {
    await this.s3.client.send(new PutObjectCommand({ Bucket: this.s3.bucket, Key: objectPath(tenantId, key), Body: body, ContentType: contentType }));
  }

  async get(tenantId: number, key: string): Promise<StoredObject | null> {
    const found = await this.stream(tenantId, key);
    if (!found) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of found.stream) chunks.push(chunk as Buffer);
    return { body: Buffer.concat(chunks), contentType: found.contentType };
  }

  async stream(tenantId: number, key: string): Promise<StoredStream | null> {
    try {
      const res = await this.s3.client.send(new GetObjectCommand({ Bucket: this.s3.bucket, Key: objectPath(tenantId, key) }));
      if (!(res.Body instanceof Readable)) throw new Error('storage: the S3 answer has no stream body');
      return { stream: res.Body, contentType: res.ContentType ?? 'application/octet-stream', size: res.ContentLength ?? 0 };
    } catch (e) {
      if (missing(e)) return null;
      throw e;
    }
  }

  async delete(tenantId: number, key: string) {
    await this.s3.client.send(new DeleteObjectCommand({ Bucket: this.s3.bucket, Key: objectPath(tenantId, key) }));
  }
}
