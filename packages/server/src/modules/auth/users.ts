import type { RoleAuth, UserMessage } from '@hublink/contract';
import type { Ctx } from '../../core/context';

/** The user message of spec 1 §3 for a main account or one of its sub-accounts. */
export async function userMessage(ctx: Ctx, tenantId: number, ramId: number | null): Promise<UserMessage> {
  const account = await ctx.db.selectFrom('account').selectAll().where('id', '=', tenantId).executeTakeFirstOrThrow();
  const unread = await ctx.db
    .selectFrom('message')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 0)
    .executeTakeFirstOrThrow();
  const common = {
    message_count: Number(unread.n),
    sign: account.sign,
    config: { software_auth_source: account.software_auth_source },
    auth: {
      quagga: account.auth_quagga,
      quagga_advanced: account.auth_quagga_advanced,
      default_route: account.auth_default_route,
    },
  };
  if (ramId === null) {
    return {
      ...common,
      nickname: account.nickname,
      username: account.username,
      ram: 0,
      user_phone: account.phone ?? '',
      user_email: account.email ?? '',
      role: null,
    };
  }
  const ram = await ctx.db
    .selectFrom('ram_account')
    .innerJoin('ram_role', 'ram_role.id', 'ram_account.role_id')
    .select(['ram_account.username', 'ram_account.nickname', 'ram_role.auth'])
    .where('ram_account.id', '=', ramId)
    .where('ram_account.tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return {
    ...common,
    nickname: ram.nickname,
    username: `${ram.username}@${account.domain}`,
    ram: 1,
    user_phone: '',
    user_email: '',
    role: JSON.parse(ram.auth) as RoleAuth,
  };
}

/** '+86 138****0000'; a number shorter than 8 digits keeps only its last 2 ('+852 ***34'). */
export function maskPhone(phone: string): string {
  const m = /^(\+\d{1,4} )?(\d+)$/.exec(phone.trim());
  if (!m) return '****';
  const area = m[1] ?? '';
  const n = m[2]!;
  return area + (n.length >= 8 ? `${n.slice(0, 3)}****${n.slice(-4)}` : `${'*'.repeat(Math.max(n.length - 2, 2))}${n.slice(-2)}`);
}
/** 'ab***@example.com' */
export const maskEmail = (email: string) => email.replace(/^(.{1,2})[^@]*@/, '$1***@');
