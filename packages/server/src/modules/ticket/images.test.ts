import { CODE, deleteSupportTicket, LIMITS, M, supportImage, supportImageSrc, uploadSupportImage } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';
import { GIF_1PX, JPEG_START } from '../../../test/images';
import { fileRow, PNG, raised, refused, upload, uploaded } from './fixtures';
import { sweepImages } from './images';

type Main = Awaited<ReturnType<typeof newAccount>>;

const DAY_MS = LIMITS.supportUploadTtlHours * 3600_000;

/** The object behind an upload, or null when storage has none. */
async function stored(t: TestApp, fileId: string) {
  const row = await fileRow(t, fileId);
  return row ? t.ctx.storage.get(row.tenant_id, row.storage_key) : null;
}

/** An upload refused with `msg`, leaving every table as it was. */
async function uploadRefused(t: TestApp, token: string, filename: string, body: Buffer, msg: string) {
  const before = await t.snapshot();
  const res = await upload(t, token, filename, body);
  expect({ filename, code: res.code, msg: res.msg }).toEqual({ filename, code: CODE.invalid, msg });
  expect(await t.snapshot()).toEqual(before);
}

const getImage = (t: TestApp, fileId: string, token?: string) =>
  t.app.inject({ method: 'GET', url: supportImageSrc(fileId), headers: token ? { authorization: `Bearer ${token}` } : {} });

describeEachDatabase('support tickets: uploading images', (t) => {
  let main: Main;

  beforeAll(async () => {
    main = await newAccount(t());
  });

  it('takes png, gif and jpeg whose bytes are what their names say, stored with the type the bytes proved', async () => {
    for (const [name, body, type] of [
      ['截图.png', PNG, 'image/png'],
      ['anim.GIF', GIF_1PX, 'image/gif'],
      ['photo.jpg', JPEG_START, 'image/jpeg'],
      ['photo.JPEG', JPEG_START, 'image/jpeg'],
      ['old.gif', Buffer.from('GIF87a\x01\x00\x01\x00', 'latin1'), 'image/gif'],
    ] as const) {
      const res = await upload(t(), main.token, name, body);
      expect({ name, code: res.code, msg: res.msg }).toEqual({ name, code: CODE.ok, msg: M.supportUploaded });
      expect(res.data!.file_id).toMatch(/^[0-9a-f]{32}$/);
      expect(res.data!.src).toBe(supportImageSrc(res.data!.file_id));
      expect(await stored(t(), res.data!.file_id)).toEqual({ body, contentType: type });
      expect(await fileRow(t(), res.data!.file_id)).toMatchObject({ tenant_id: main.account.id, state: 0, content_type: type, size: body.length });
    }
  });

  it('refuses other formats by name, and scripts, executables and mismatched images by content', async () => {
    const refusals: [string, Buffer][] = [
      // Formats the spec does not take, whatever they hold.
      ['vector.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
      ['image.webp', Buffer.from('RIFF\0\0\0\0WEBPVP8 ')],
      ['image.bmp', Buffer.from('BM')],
      ['noextension', PNG],
      ['png', PNG],
      ['shot.png.exe', PNG],
      // A script or a page named as an image.
      ['shot.png', Buffer.from('#!/bin/sh\nrm -rf /\n')],
      ['shot.png', Buffer.from('<html><script>alert(document.cookie)</script></html>')],
      ['shot.gif', Buffer.from('<script>alert(1)</script>GIF89a')],
      // A Windows executable and an ELF binary renamed.
      ['setup.jpg', Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), Buffer.alloc(60)])],
      ['tool.png', Buffer.concat([Buffer.from('\x7fELF', 'latin1'), Buffer.alloc(60)])],
      // A real image under another format's name: name and content must agree.
      ['anim.png', GIF_1PX],
      ['shot.jpg', PNG],
      ['photo.gif', JPEG_START],
      // Cut short before the signature ends, and empty.
      ['shot.png', PNG.subarray(0, 5)],
      ['empty.png', Buffer.alloc(0)],
    ];
    for (const [name, body] of refusals) await uploadRefused(t(), main.token, name, body, M.supportImageFormat);
  });

  it('takes an image of exactly 2 MB and refuses one byte more with 图片大小不能超过 2MB!', async () => {
    const full = Buffer.concat([PNG, Buffer.alloc(LIMITS.uploadMaxBytes - PNG.length)]);
    expect((await upload(t(), main.token, 'big.png', full)).code).toBe(CODE.ok);
    await uploadRefused(t(), main.token, 'big.png', Buffer.concat([full, Buffer.alloc(1)]), M.supportImageTooLarge);
  });

  it('refuses a request without a file', async () => {
    const before = await t().snapshot();
    const res = await t().call(uploadSupportImage, { token: main.token, body: {} });
    expect({ code: res.code, msg: res.msg }).toEqual({ code: CODE.invalid, msg: M.fileRequired });
    expect(await t().snapshot()).toEqual(before);
  });

  it('bounds the uploads a tenant holds unused; using them frees the bound', async () => {
    const tenant = await newAccount(t());
    const ids: string[] = [];
    for (let i = 0; i < LIMITS.supportPendingUploadsMax; i++) ids.push(await uploaded(t(), tenant.token));
    await uploadRefused(t(), tenant.token, 'one-more.png', PNG, M.supportUploadsTooMany);
    await raised(t(), tenant.token, { file_ids: ids.slice(0, 3) });
    expect((await upload(t(), tenant.token, 'now.png', PNG)).code).toBe(CODE.ok);
  });
});

describeEachDatabase('support tickets: serving images', (t) => {
  let a: Main;
  let b: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    b = await newAccount(t());
  });

  it('serves the bytes to the tenant inline, with the stored type, nosniff and no caching', async () => {
    const fileId = await uploaded(t(), a.token, 'shot.png');
    const res = await getImage(t(), fileId, a.token);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-disposition'])).toMatch(new RegExp(`^inline; filename="${fileId}\\.png"`));
    expect(res.headers['cache-control']).toBe('no-store');
    const gif = await uploaded(t(), a.token, 'a.gif', GIF_1PX);
    expect((await getImage(t(), gif, a.token)).headers['content-type']).toBe('image/gif');
    const jpeg = await uploaded(t(), a.token, 'a.jpeg', JPEG_START);
    expect((await getImage(t(), jpeg, a.token)).headers).toMatchObject({ 'content-type': 'image/jpeg', 'content-disposition': expect.stringMatching(/^inline; filename="[0-9a-f]{32}\.jpg"/) });
    // Through the contract's call too: an image, not an envelope.
    const call = await t().call(supportImage, { token: a.token, query: { file_id: fileId } });
    expect(call.file).toMatchObject({ contentType: 'image/png' });
  });

  it('answers another tenant, a missing token and an unknown id with the envelope, never the bytes', async () => {
    const fileId = await uploaded(t(), a.token);
    const other = await getImage(t(), fileId, b.token);
    expect(other.headers['content-type']).toMatch(/^application\/json/);
    expect(other.json()).toEqual({ code: CODE.notFound, msg: M.supportImageNotFound });
    const anonymous = await getImage(t(), fileId);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: CODE.tokenInvalid });
    expect((await getImage(t(), '0'.repeat(32), a.token)).json()).toEqual({ code: CODE.notFound, msg: M.supportImageNotFound });
    await refused(t(), a.token, supportImage, { file_id: '../../secret.key' }, CODE.invalid, M.supportImageNotFound);
  });
});

describeEachDatabase('support tickets: removing images', (t) => {
  let main: Main;

  beforeAll(async () => {
    main = await newAccount(t());
  });

  it('removes uploads unused for a day, keeps younger ones and those a ticket took', async () => {
    const old = await uploaded(t(), main.token);
    const young = await uploaded(t(), main.token);
    const used = await uploaded(t(), main.token);
    await raised(t(), main.token, { file_ids: [used] });
    await t()
      .db.updateTable('support_file')
      .set({ create_time: Date.now() - DAY_MS - 1000 })
      .where('file_id', 'in', [old, used])
      .execute();
    const oldObject = await fileRow(t(), old);
    await sweepImages(t().ctx);
    expect(await fileRow(t(), old)).toBeUndefined();
    expect(await t().ctx.storage.get(main.account.id, oldObject!.storage_key)).toBeNull();
    expect(await stored(t(), young)).not.toBeNull();
    expect(await stored(t(), used)).not.toBeNull();
    expect((await getImage(t(), used, main.token)).statusCode).toBe(200);
  });

  it('removes a deleted ticket’s images at once, and the sweep any the delete left behind', async () => {
    const images = [await uploaded(t(), main.token), await uploaded(t(), main.token)];
    const number = await raised(t(), main.token, { file_ids: images });
    const keys = await t().db.selectFrom('support_file').select('storage_key').where('file_id', 'in', images).execute();
    expect((await t().call(deleteSupportTicket, { token: main.token, body: { ticket_number: number } })).code).toBe(CODE.ok);
    for (const id of images) expect(await fileRow(t(), id)).toBeUndefined();
    for (const { storage_key } of keys) expect(await t().ctx.storage.get(main.account.id, storage_key)).toBeNull();
    // Storage failing during a delete: the ticket goes, its images stay discarded until the sweep.
    const kept = await uploaded(t(), main.token);
    const second = await raised(t(), main.token, { file_ids: [kept] });
    const storageDelete = t().ctx.storage.delete;
    t().ctx.storage.delete = () => Promise.reject(new Error('storage down'));
    try {
      expect((await t().call(deleteSupportTicket, { token: main.token, body: { ticket_number: second } })).code).toBe(CODE.ok);
    } finally {
      t().ctx.storage.delete = storageDelete;
    }
    expect(await fileRow(t(), kept)).toMatchObject({ state: 2, ticket_id: null });
    expect((await getImage(t(), kept, main.token)).json()).toEqual({ code: CODE.notFound, msg: M.supportImageNotFound });
    await sweepImages(t().ctx);
    expect(await fileRow(t(), kept)).toBeUndefined();
  });
});
