import { SECRET_MASK } from '@hublink/contract';

/*
 * What whoever may only view monitoring sees (issue 33): a robot's URL carries its access token
 * (DingTalk's access_token, Feishu's hook path, WeCom's key), and contacts' addresses and the mobiles a
 * webhook mentions are personal data. The main account, and a role or token with monitoring edit, see
 * them whole (core/guard.ts `may`).
 */

/** scheme://host/****** */
export function maskedUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}/${SECRET_MASK}`;
  } catch {
    return SECRET_MASK;
  }
}

/** a***@example.com: the first character of the mailbox, the domain whole. */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** 138****5678: the first three and last four digits of a mobile number. */
export function maskedMobile(mobile: string): string {
  if (mobile.length < 8) return '****';
  return `${mobile.slice(0, 3)}****${mobile.slice(-4)}`;
}
