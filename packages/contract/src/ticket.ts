import { z } from 'zod';
import { defineEndpoint, noData, type FileResponse } from './endpoint';
import { integerField, multilineText, pageQuery, plainText, requiredString } from './fields';
import { LIMITS } from './limits';
import { BM, fmt, ticketMessages } from './messages';

/*
 * Support tickets (spec 3 §2–§9): a tenant raises a ticket with up to three images, the service's
 * advisers answer inside it (the operator's side, modules/ticket on the server), the tenant replies
 * and finally rates the service. Every call is the signed-in tenant's, main account or sub-account.
 * Named support tickets here: `ticket`, `createTicket` and the like are the network work orders'.
 */

/** Problem types of spec 3 §3 with their labels, in the order the create form offers them. */
export const SUPPORT_TYPES = [
  { value: 1, label: ticketMessages.supportTypePlatform },
  { value: 2, label: ticketMessages.supportTypeNetworking },
  { value: 3, label: ticketMessages.supportTypeDevice },
  { value: 4, label: ticketMessages.supportTypeAccount },
  { value: 6, label: ticketMessages.supportTypeOther },
] as const;
export type SupportType = (typeof SUPPORT_TYPES)[number]['value'];

export const supportTypeLabel = (type: number): string => SUPPORT_TYPES.find((t) => t.value === type)?.label ?? ticketMessages.supportTypeOther;

/**
 * Statuses (ours, docs/decisions.md "Support tickets"): pending while the service owes an answer (new,
 * or the tenant wrote last), replied once an adviser has answered, closed by the operator or by the
 * tenant's appraisal. A closed ticket takes no more replies.
 */
export const SUPPORT_STATUS = { pending: 1, replied: 2, closed: 3 } as const;
export type SupportStatus = (typeof SUPPORT_STATUS)[keyof typeof SUPPORT_STATUS];

export const SUPPORT_STATUS_LABELS: Record<SupportStatus, string> = {
  [SUPPORT_STATUS.pending]: ticketMessages.supportStatusPending,
  [SUPPORT_STATUS.replied]: ticketMessages.supportStatusReplied,
  [SUPPORT_STATUS.closed]: ticketMessages.supportStatusClosed,
};

export const supportStatusLabel = (status: number): string => SUPPORT_STATUS_LABELS[status as SupportStatus] ?? String(status);

/** The images a ticket takes (spec 3 §5: png, gif, jpeg), by the name's extension, and the type each is served with. */
export const SUPPORT_IMAGE_FORMATS = [
  { extensions: ['png'], contentType: 'image/png' },
  { extensions: ['gif'], contentType: 'image/gif' },
  { extensions: ['jpg', 'jpeg'], contentType: 'image/jpeg' },
] as const;

/** The extension of a file name, lower-cased ('' without one). */
const extensionOf = (name: string): string => /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

/** The format a file name announces, or undefined when it is none of png, gif, jpeg. */
export const supportImageFormatOf = (name: string) => {
  const ext = extensionOf(name);
  return SUPPORT_IMAGE_FORMATS.find((f) => (f.extensions as readonly string[]).includes(ext));
};

/** What the console's file picker offers. */
export const SUPPORT_IMAGE_ACCEPT = SUPPORT_IMAGE_FORMATS.flatMap((f) => f.extensions.map((e) => `.${e}`)).join(',');

/** An uploaded image's id: 32 hex digits, as /ticket/upload_file answers it. */
export const SUPPORT_FILE_ID = /^[0-9a-f]{32}$/;

const fileIdField = plainText(ticketMessages.supportImageInvalid).regex(SUPPORT_FILE_ID, ticketMessages.supportImageInvalid);

/** Images a ticket or a reply carries: ids of uploads not used yet, at most three, each once. */
const fileIdsField = z
  .array(fileIdField, { error: ticketMessages.supportImageInvalid })
  .max(LIMITS.supportImagesMax, fmt(ticketMessages.supportImagesTooMany, { n: LIMITS.supportImagesMax }))
  .refine((ids) => new Set(ids).size === ids.length, ticketMessages.supportImageInvalid)
  .default([]);

export const supportTicketNumberField = requiredString(ticketMessages.supportNotFound).max(32, ticketMessages.supportNotFound);

const onTicket = z.object({ ticket_number: supportTicketNumberField });

/** An image of a ticket or of a dialogue entry: its id and the API path that serves it to the tenant. */
export const supportAttachment = z.object({ file_id: z.string(), src: z.string() });
export type SupportAttachment = z.infer<typeof supportAttachment>;

export const supportTicketItem = z.object({
  ticket_number: z.string(),
  ticket_title: z.string(),
  ticket_status: z.number(),
  ticketType: z.number(),
  create_time: z.string(),
  /** The caller may delete it: the main account, or the sub-account that raised it. */
  deletable: z.boolean(),
});
export type SupportTicketItem = z.infer<typeof supportTicketItem>;

export const supportDialogueEntry = z.object({
  /** 'service' for an adviser's answer, 'tenant' for the tenant's own. */
  reply_type: z.enum(['tenant', 'service']),
  /** The adviser's name, or the tenant's account (its nickname, or the sub-account's) that wrote it. */
  reply_name: z.string(),
  reply_time: z.string(),
  dialogue_content: z.string(),
  images: z.array(supportAttachment),
});
export type SupportDialogueEntry = z.infer<typeof supportDialogueEntry>;

export const supportAppraisal = z.object({ grade: z.number(), content: z.string(), create_time: z.string() });

export const supportTicketDetail = supportTicketItem.extend({
  /** The overview as the tenant wrote it. */
  content: z.string(),
  images: z.array(supportAttachment),
  /** Who raised it: the main account's nickname, or the sub-account's. */
  raised_by: z.string(),
  dialogue: z.array(supportDialogueEntry),
  /** null until the tenant rates the service; then the ticket is closed and read only. */
  appraise: supportAppraisal.nullable(),
});
export type SupportTicketDetail = z.infer<typeof supportTicketDetail>;

/** GET /ticket/lists (page, search): the tenant's tickets, newest first; search matches the number or the title. */
export const listSupportTickets = defineEndpoint({
  path: '/ticket/lists',
  method: 'GET',
  access: 'user',
  query: pageQuery,
  response: z.array(supportTicketItem),
  paged: true,
});

/** GET /ticket/info (ticket_number): the ticket with its images, dialogue and appraisal. */
export const supportTicketInfo = defineEndpoint({
  path: '/ticket/info',
  method: 'GET',
  access: 'user',
  query: onTicket,
  response: supportTicketDetail,
});

export const supportTitleField = requiredString(ticketMessages.supportTitleRequired)
  .min(LIMITS.supportTitleMin, fmt(ticketMessages.supportTitleMin, { n: LIMITS.supportTitleMin }))
  .max(LIMITS.supportTitleMax, fmt(ticketMessages.supportTitleMax, { n: LIMITS.supportTitleMax }));

/** Text of several lines (an overview, a reply, a comment): trimmed, no control characters but line breaks and tabs. */
const paragraphs = (required: string) => multilineText(required).min(1, required);

export const supportContentField = paragraphs(ticketMessages.supportContentRequired)
  .min(LIMITS.supportContentMin, fmt(ticketMessages.supportContentMin, { n: LIMITS.supportContentMin }))
  .max(LIMITS.supportContentMax, fmt(ticketMessages.supportContentMax, { n: LIMITS.supportContentMax }));

export const supportReplyField = paragraphs(ticketMessages.supportReplyRequired).max(LIMITS.supportContentMax, fmt(ticketMessages.supportReplyMax, { n: LIMITS.supportContentMax }));

export const supportTypeField = integerField(ticketMessages.supportTypeRequired, 1, 99).refine((v) => SUPPORT_TYPES.some((t) => t.value === v), ticketMessages.supportTypeRequired);

/** POST /ticket/create (title, content, type, file_ids): a pending ticket; answers its number. */
export const createSupportTicket = defineEndpoint({
  path: '/ticket/create',
  method: 'POST',
  access: 'user',
  body: z.object({
    title: supportTitleField,
    content: supportContentField,
    type: supportTypeField,
    file_ids: fileIdsField,
  }),
  response: z.object({ ticket_number: z.string() }),
});

/** POST /ticket/delete (ticket_number): the main account's, or the sub-account's that raised it; its images go too. */
export const deleteSupportTicket = defineEndpoint({
  path: '/ticket/delete',
  method: 'POST',
  access: 'user',
  body: onTicket,
  response: noData,
});

/** POST /ticket/reply (ticket_number, file_ids, content): the tenant writes in the dialogue of a ticket not closed. */
export const replySupportTicket = defineEndpoint({
  path: '/ticket/reply',
  method: 'POST',
  access: 'user',
  body: onTicket.extend({ content: supportReplyField, file_ids: fileIdsField }),
  response: noData,
});

/** POST /ticket/appraise (ticket_number, grade, content): rates the service once (1 to 5 stars); the ticket closes. */
export const appraiseSupportTicket = defineEndpoint({
  path: '/ticket/appraise',
  method: 'POST',
  access: 'user',
  body: onTicket.extend({
    grade: integerField(ticketMessages.supportGradeRequired, 1, LIMITS.supportGradeMax),
    content: multilineText(BM.validationFailed)
      .max(LIMITS.supportAppraiseMax, fmt(ticketMessages.supportAppraiseMax, { n: LIMITS.supportAppraiseMax }))
      .default(''),
  }),
  response: noData,
});

/**
 * POST /ticket/upload_file: multipart with one image 'file', png, gif or jpeg by its name and by its
 * first bytes, at most 2 MB. Answers its id (for file_ids) and src; unused, it is removed after a day.
 */
export const uploadSupportImage = defineEndpoint({
  path: '/ticket/upload_file',
  method: 'POST',
  access: 'user',
  response: supportAttachment,
});

export const SUPPORT_IMAGE_FILE: FileResponse = { file: 'image/*' };

/** GET /ticket/file (file_id): an image of the caller's tenant, inline, with its stored type. */
export const supportImage = defineEndpoint({
  path: '/ticket/file',
  method: 'GET',
  access: 'user',
  query: z.object({ file_id: plainText(ticketMessages.supportImageNotFound).regex(SUPPORT_FILE_ID, ticketMessages.supportImageNotFound) }),
  response: SUPPORT_IMAGE_FILE,
});

/** The src of an image: the API path that serves it (with the bearer token only). */
export const supportImageSrc = (fileId: string) => `/api/v1${supportImage.path}?file_id=${fileId}`;
