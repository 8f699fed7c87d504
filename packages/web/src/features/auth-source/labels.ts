import { AUTH_SOURCE_TYPE_LABELS, authSourceMessages, type AuthSourceType } from '@hublink/contract';

/** How each open platform names the app id, the secret and the way back (spec 3 §3 fields, per type). */
export const FIELD_LABELS: Record<AuthSourceType, { appId: string; secret: string; authDomain: string; authDomainHint: string }> = {
  wechat: {
    appId: authSourceMessages.authSourceFieldAppIdWechat,
    secret: authSourceMessages.authSourceFieldSecretWechat,
    authDomain: authSourceMessages.authSourceFieldAuthDomainWechat,
    authDomainHint: authSourceMessages.authSourceFieldAuthDomainHintWechat,
  },
  feishu: { appId: authSourceMessages.authSourceFieldAppIdFeishu, secret: authSourceMessages.authSourceFieldSecretFeishu, authDomain: authSourceMessages.authSourceFieldAuthDomain, authDomainHint: authSourceMessages.authSourceFieldAuthDomainHint },
  dingtalk: {
    appId: authSourceMessages.authSourceFieldAppIdDingtalk,
    secret: authSourceMessages.authSourceFieldSecretDingtalk,
    authDomain: authSourceMessages.authSourceFieldAuthDomain,
    authDomainHint: authSourceMessages.authSourceFieldAuthDomainHint,
  },
};

export const typeLabel = (type: AuthSourceType) => AUTH_SOURCE_TYPE_LABELS[type];
