import { AUTH_SOURCE_TYPE_LABELS, M, type AuthSourceType } from '@hublink/contract';

/** How each open platform names the app id, the secret and the way back (spec 3 §3 fields, per type). */
export const FIELD_LABELS: Record<AuthSourceType, { appId: string; secret: string; authDomain: string; authDomainHint: string }> = {
  wechat: {
    appId: M.authSourceFieldAppIdWechat,
    secret: M.authSourceFieldSecretWechat,
    authDomain: M.authSourceFieldAuthDomainWechat,
    authDomainHint: M.authSourceFieldAuthDomainHintWechat,
  },
  feishu: { appId: M.authSourceFieldAppIdFeishu, secret: M.authSourceFieldSecretFeishu, authDomain: M.authSourceFieldAuthDomain, authDomainHint: M.authSourceFieldAuthDomainHint },
  dingtalk: {
    appId: M.authSourceFieldAppIdDingtalk,
    secret: M.authSourceFieldSecretDingtalk,
    authDomain: M.authSourceFieldAuthDomain,
    authDomainHint: M.authSourceFieldAuthDomainHint,
  },
};

export const typeLabel = (type: AuthSourceType) => AUTH_SOURCE_TYPE_LABELS[type];
