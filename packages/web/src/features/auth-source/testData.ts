import { type AuthSourceDefaults, type AuthSourceItem, authSourceMessages } from '@hublink/contract';
import type { SourceConfig } from './AuthSourceDialog';

const defaults = (white_ip: string, auth_domain: string): AuthSourceDefaults => ({ white_ip, auth_domain });

/** GET /auth_source/code as the server answers it. */
export const codeAnswer = {
  code: 'K7M2QX9P',
  config: {
    type: [
      { value: 'wechat' as const, label: authSourceMessages.authSourceTypeWechat },
      { value: 'feishu' as const, label: authSourceMessages.authSourceTypeFeishu },
      { value: 'dingtalk' as const, label: authSourceMessages.authSourceTypeDingtalk },
    ],
    default: {
      wechat: defaults('203.0.113.7;203.0.113.8', 'console.example.com'),
      feishu: defaults('203.0.113.7,203.0.113.8', 'https://console.example.com/api/v1/auth_source/callback'),
      dingtalk: defaults('203.0.113.7,203.0.113.8', 'https://console.example.com/api/v1/auth_source/callback'),
    },
  },
};

export const sourceConfig: SourceConfig = { code: codeAnswer.code, types: codeAnswer.config.type, defaults: codeAnswer.config.default };

export const rows: AuthSourceItem[] = [
  { id: 3, type: 'dingtalk', name: 'DingTalk SSO', app_id: 'dingappkey01', agent_id: '', corp_id: 'dingcorp01', status: 0, create_time: '2026-03-02 09:00:00' },
  { id: 2, type: 'wechat', name: 'HQ WeCom', app_id: 'ww0123456789', agent_id: '1000002', corp_id: '', status: 1, create_time: '2026-03-01 09:00:00' },
];
