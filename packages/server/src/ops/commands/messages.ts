import { MESSAGE_TYPES, sendMessageInput } from '@hublink/contract';
import { z } from 'zod';
import { sendMessage } from '../../modules/message';
import { defineCommand, tenantArg } from '../command';
import { findTenant } from './tenant';

const send = defineCommand({
  group: 'messages',
  name: 'send',
  summary: "write a message into a tenant's message centre (unread, for the main account and its sub-accounts)",
  positionals: ['tenant'],
  options: {
    title: { help: 'the title' },
    content: { help: 'the content as HTML (sanitised like announcements)' },
    type: { help: `one of ${Object.keys(MESSAGE_TYPES).join(', ')} (default system)` },
  },
  input: z.object({ tenant: tenantArg, ...sendMessageInput.shape }),
  async run(ctx, input) {
    const tenant = await findTenant(ctx, input.tenant);
    const id = await sendMessage(ctx, tenant.id, { title: input.title, content: input.content, type: input.type });
    return { done: `message ${id} sent to ${tenant.username}`, data: { id } };
  },
});

export const messageCommands = [send];
