import type { DomainEvent } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import type { EventMeta } from '../../core/events';

/** A sub-account's last sign-in time (the list's login_time): the sign-in's time, never moved back by a late or repeated delivery. */
export async function recordSignIn(event: DomainEvent<'account.signed_in'>, ctx: Ctx, meta: EventMeta): Promise<void> {
  if (event.ram_id === null) return;
  await ctx.db
    .updateTable('ram_account')
    .set({ login_time: meta.at })
    .where('id', '=', event.ram_id)
    .where('tenant_id', '=', event.tenant_id)
    .where((eb) => eb.or([eb('login_time', 'is', null), eb('login_time', '<', meta.at)]))
    .execute();
}
