import { LIMITS, MESSAGE_STATUS, type DomainEvent } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { sanitizeRichText } from '../../core/richText';

/**
 * alert.raised: a monitoring alert's in-app message (type 'alert'). The event may come twice (at least
 * once); the message's dedupe key, unique in the tenant, lets the second one write nothing.
 */
export async function writeAlertMessage(event: DomainEvent<'alert.raised'>, ctx: Ctx): Promise<void> {
  await ctx.db
    .insertInto('message')
    .values({
      tenant_id: event.tenant_id,
      title: event.title.slice(0, LIMITS.messageTitleMax),
      content: sanitizeRichText(event.content),
      type: 'alert',
      status: MESSAGE_STATUS.unread,
      create_time: Date.now(),
      dedupe_key: `alert:${event.alert_id}`,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'dedupe_key']).doNothing())
    .execute();
}
