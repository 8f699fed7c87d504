import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { idField, multilineText, pageQuery, requiredString } from './fields';
import { LIMITS } from './limits';
import { BM, fmt, messageMessages } from './messages';

/** The kinds of message the service sends a tenant, with the label the console shows. */
export const MESSAGE_TYPES = {
  system: messageMessages.messageTypeSystem,
  service: messageMessages.messageTypeService,
  network: messageMessages.messageTypeNetwork,
  ticket: messageMessages.messageTypeTicket,
  alert: messageMessages.messageTypeAlert,
} as const;
export type MessageType = keyof typeof MESSAGE_TYPES;
export const messageTypeField = z.enum(Object.keys(MESSAGE_TYPES) as [MessageType, ...MessageType[]], { error: messageMessages.messageTypeInvalid });

/** The label of a message type (an unknown one is shown as it is). */
export const messageTypeLabel = (type: string): string => MESSAGE_TYPES[type as MessageType] ?? type;

/** Message status of spec 1 §4: 0 unread, 1 read. */
export const MESSAGE_STATUS = { unread: 0, read: 1 } as const;

/** One row of the message centre (spec 1 §3). */
export const messageItem = z.object({
  message_id: z.number(),
  title: z.string(),
  create_time: z.string(),
  type: z.string(),
  status: z.union([z.literal(0), z.literal(1)]),
});
export type MessageItem = z.infer<typeof messageItem>;

/** GET /message/lists; `type` keeps one kind (the overview's alerts link to type 'alert'). */
export const listMessages = defineEndpoint({
  path: '/message/lists',
  method: 'GET',
  access: 'user',
  query: pageQuery.extend({ type: messageTypeField.optional() }),
  response: z.array(messageItem),
  paged: true,
});

/** Opening a message marks it read (spec 1 §4). The content is sanitised HTML. */
export const messageInfo = defineEndpoint({
  path: '/message/info',
  method: 'GET',
  access: 'user',
  query: z.object({
    message_id: idField(messageMessages.messageNotFound),
  }),
  response: messageItem.extend({ content: z.string() }),
});

/**
 * The selection of the update and delete calls: a list of message_id, or type 'all' for every message
 * of the tenant (then the list is ignored). Nothing selected answers '请选择消息标题'.
 */
export const messageSelection = z
  .object({
    message_id: z
      .array(z.number({ error: BM.selectMessage }).int(BM.selectMessage).positive(BM.selectMessage).max(LIMITS.maxId, BM.selectMessage), {
        error: BM.selectMessage,
      })
      .max(LIMITS.maxPageLimit, fmt(messageMessages.messageSelectionTooLarge, { n: LIMITS.maxPageLimit }))
      .optional(),
    type: z.literal('all', { error: BM.selectMessage }).optional(),
  })
  .refine((v) => v.type === 'all' || (v.message_id?.length ?? 0) > 0, { path: ['message_id'], message: BM.selectMessage });
export type MessageSelection = z.infer<typeof messageSelection>;

/** Marks the selected messages (or all) read. */
export const markMessagesRead = defineEndpoint({
  path: '/message/update_message',
  method: 'POST',
  access: 'user',
  body: messageSelection,
  response: noData,
});

/** Deletes the selected messages (or all). Main accounts only: the inbox is the tenant's. */
export const deleteMessages = defineEndpoint({
  path: '/message/delete_message',
  method: 'POST',
  access: 'main',
  body: messageSelection,
  response: noData,
});

/** What the operator sends a tenant (`hublink ops`, and the service's own notices). */
export const sendMessageInput = z.object({
  title: requiredString(messageMessages.messageTitleRequired).max(LIMITS.messageTitleMax, fmt(messageMessages.messageTitleTooLong, { n: LIMITS.messageTitleMax })),
  content: multilineText(messageMessages.messageContentRequired).min(1, messageMessages.messageContentRequired).max(LIMITS.richTextMax, messageMessages.messageContentTooLong),
  type: messageTypeField.default('system'),
});
export type SendMessageInput = z.input<typeof sendMessageInput>;
