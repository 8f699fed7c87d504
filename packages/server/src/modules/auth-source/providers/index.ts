import type { AuthSourceType } from '@hublink/contract';
import { dingtalk } from './dingtalk';
import { feishu } from './feishu';
import type { Provider } from './types';
import { wecom } from './wecom';

export const PROVIDERS: Record<AuthSourceType, Provider> = { wechat: wecom, feishu, dingtalk };

export { ProviderRefusal, type Identity, type SourceApp } from './types';
