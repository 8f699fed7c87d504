import { CODE, createSupportTicket, M, uploadSupportImage, type Endpoint, type Envelope, type SupportAttachment } from '@hublink/contract';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/helpers';
import { pngImage } from '../../../test/images';
import { uploadFile } from '../../../test/multipart';
import { replyAsOperator } from './operator';

/** A small real PNG. */
export const PNG = pngImage(4, 4, [[220, 40, 40]]);

export const upload = (t: TestApp, token: string, filename: string, body: Buffer): Promise<Envelope<SupportAttachment>> =>
  uploadFile<SupportAttachment>(t, uploadSupportImage, token, { filename, body, contentType: 'image/png' });

/** Uploads an image and answers its file_id (fails the test when refused). */
export async function uploaded(t: TestApp, token: string, filename = 'shot.png', body: Buffer = PNG): Promise<string> {
  const res = await upload(t, token, filename, body);
  expect({ code: res.code, msg: res.msg }).toEqual({ code: CODE.ok, msg: M.supportUploaded });
  return res.data!.file_id;
}

export const ticketBody = (over: Record<string, unknown> = {}) => ({ title: '无法连接总部网络', content: '分支机构的路由器从昨天开始无法连接到总部网络。', type: 2, ...over });

/** Raises a ticket and answers its number (fails the test when refused). */
export async function raised(t: TestApp, token: string, over: Record<string, unknown> = {}): Promise<string> {
  const res = await t.call(createSupportTicket, { token, body: ticketBody(over) });
  expect({ code: res.code, msg: res.msg }).toEqual({ code: CODE.ok, msg: M.supportCreated });
  return res.data!.ticket_number;
}

/** A ticket raised and answered by an adviser (so it may be rated). */
export async function answered(t: TestApp, token: string, over: Record<string, unknown> = {}): Promise<string> {
  const number = await raised(t, token, over);
  await replyAsOperator(t.ctx, number, { content: '您好，已为您处理。', adviser: '客服小刘' });
  return number;
}

export const send = (t: TestApp, e: Endpoint, token: string, input: Record<string, unknown>) =>
  t.call(e, e.method === 'GET' ? { token, query: input } : { token, body: input });

/** Expects a refusal with its code and message, and no change to any table a call can change. */
export async function refused(t: TestApp, token: string, e: Endpoint, input: Record<string, unknown>, code: number, msg: string) {
  const before = await t.snapshot();
  const res = await send(t, e, token, input);
  expect({ path: e.path, input, code: res.code, msg: res.msg }).toEqual({ path: e.path, input, code, msg });
  expect(await t.snapshot()).toEqual(before);
}

export const ticketRow = (t: TestApp, number: string) => t.db.selectFrom('support_ticket').selectAll().where('ticket_number', '=', number).executeTakeFirstOrThrow();

export const fileRow = (t: TestApp, fileId: string) => t.db.selectFrom('support_file').selectAll().where('file_id', '=', fileId).executeTakeFirst();
