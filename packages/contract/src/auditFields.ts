/**
 * How the audit page and its export show an entry's changes: tables and columns by the names the
 * console gives them, and values as a reader of the console knows them (硬件成员, 开启, 10.0.0.1/24,
 * dates) rather than as stored (1, 0, JSON). A column named nowhere here keeps its own name, and its
 * value still reads as text: JSON becomes "名称：值" lines, never braces and quotes.
 */

import { apiTokenMessages, authSourceMessages, deviceApprovalMessages, ldapMessages, monitorMessages, networkMessages, popMessages, ticketMessages } from './messages';

type Cell = string | number | boolean | null;

const TABLE_NAMES: Readonly<Record<string, string>> = {
  account: '账号',
  ram_role: '角色',
  ram_account: '子账号',
  message: '消息',
  setting: '设置',
  member: '成员',
  network: '网络',
  network_member: '网络成员',
  member_command: '设备命令',
  network_pki: '网络证书',
  member_certificate: '成员证书',
  network_fr: 'POP资源',
  network_fr_area: 'POP区域',
  network_ticket: 'POP工单',
  network_prefix: '路由前缀',
  saas_device: 'SaaS设备',
  service: '服务',
  monitor_config: '监控设置',
  monitor_router: '监控成员',
  monitor_contact: '联系人',
  monitor_webhook: 'Webhook',
  monitor_hook: 'Webhook',
  monitor_delivery: '告警投递',
  ldap_file: 'LDAP证书',
  ldap_domain: 'LDAP域名',
  ldap_config: 'LDAP配置',
  ldap_user: 'LDAP用户',
  support_ticket: '工单',
  support_dialogue: '工单对话',
  support_file: '工单图片',
  member_import: '成员导入',
  auth_source: '认证源',
  auth_source_member: '认证源成员',
  api_token: 'API令牌',
  audit_setting: '审计设置',
  device_approval_setting: '设备审批设置',
  device_approval: '设备审批',
  device_credential: '设备凭据',
  pop_relay: 'POP中继',
  announcement: '公告',
  client_release: '客户端版本',
};

/** Column names, the same in every table. */
const FIELD_NAMES: Readonly<Record<string, string>> = {
  id: '编号',
  name: '名称',
  network_name: '网络名称',
  network_number: '网络编号',
  network_type: '网络类型',
  network_id: '网络',
  member_id: '成员',
  router_name: '设备名称',
  router_type: '成员类型',
  member_type: '成员位置',
  username: '用户名',
  nickname: '昵称',
  note: '备注',
  status: '状态',
  phone: '手机',
  email: '邮箱',
  password: '密码',
  sign: '成员后缀',
  domain: '域名',
  dns: 'DNS',
  ncp_ciphers: '加密方式',
  routing_type: '线路主备',
  routing_secondary_id: '备线路中心',
  network_fr_id: 'POP资源',
  ip_pool: 'IP地址池',
  center_link: '双中心互联',
  center_link_network: '双中心互联设置',
  interconnect: '中心互联',
  interconnect_network: '中心互联网段',
  routing: '线路',
  default_route: '默认路由',
  metric: '优先级',
  quagga: '动态路由',
  ov_main: '主POP区域',
  ov_backup: '备POP区域',
  ov_priority: 'POP区域优先',
  gateway: 'VPN网段',
  fixed_port: '固定端口',
  link_centers: '连接的中心',
  role_id: '角色',
  ram_id: '子账号',
  source_id: '认证源',
  area_id: 'POP区域',
  ca_id: 'CA证书',
  ticket_id: '工单',
  dialogue_id: '工单对话',
  auth: '权限',
  scope: '范围',
  title: '标题',
  content: '内容',
  type: '类型',
  tag: '标签',
  retention_days: '保留天数',
  online_status: '在线状态',
  create_time: '创建时间',
  update_time: '更新时间',
  expires_at: '到期时间',
  expire_time: '到期时间',
  expired_time: '到期时间',
  start_time: '开始时间',
  revoked_at: '吊销时间',
  login_time: '登录时间',
  online_time: '上线时间',
  release_time: '发布时间',
  enabled_time: '开启时间',
  enable_time: '开启时间',
  complete_time: '完成时间',
  birthday: '生日',
  industry: '行业',
  occupation: '职业',
  software_auth_source: '软件成员认证源',
  auth_quagga: '动态路由权限',
  auth_quagga_advanced: '高级动态路由权限',
  auth_default_route: '默认路由权限',
  network_level: '网络版本',
  network_router_count: '可组网成员数',
  network_center_count: '中心数',
  dns_quantity: 'DNS数量',
  ram_quantity: '子账号数量',
  network_router_use: '已组网成员数',
  network_count: '所在网络数',
  area_number: '区号',
  ip: 'IP地址',
  mask: '掩码',
  permission: '规则',
  ge: '最小掩码',
  le: '最大掩码',
  position: '顺序',
  region: '区域',
  bandwidth: '带宽（Mbps）',
  max_bandwidth: '最大带宽（Mbps）',
  temp_bandwidth: '临时带宽（Mbps）',
  temp_start_time: '临时带宽开始时间',
  temp_expire_time: '临时带宽到期时间',
  share: '共享版',
  category: '类别',
  host: '主机',
  port: '端口',
  service_name: '服务名称',
  quantity: '数量',
  enable: '监控',
  enabled: '开启',
  router_online: '成员上线告警',
  router_offline: '成员离线告警',
  service_expired: '服务到期告警',
  pop_connect: 'POP连接告警',
  portal_confirm: '站内消息通知',
  email_confirm: '邮件通知',
  webhook_confirm: 'Webhook通知',
  email_verify: '邮箱已验证',
  url: '地址',
  base_dn: 'Base DN',
  use_ssl: 'SSL',
  use_tls: 'TLS',
  sync_mode: '同步方式',
  sync_status: '同步状态',
  sync_message: '同步结果',
  sync_time: '同步时间',
  disabled: '已停用',
  grade: '评分',
  appraise_content: '评价内容',
  appraise_time: '评价时间',
  reply_name: '回复人',
  reply_type: '回复方',
  state: '状态',
  kind: '类型',
  version: '版本',
  platform: '平台',
  file_name: '文件名',
  file_size: '文件大小',
  ticket_number: '工单编号',
  network_ticket_number: 'POP工单编号',
  network_ticket_type: 'POP工单类型',
  network_ticket_status: 'POP工单状态',
  attributes: '工单内容',
  app_id: '应用ID',
  agent_id: '应用AgentId',
  corp_id: '企业ID',
  device_key: '设备标识',
  os: '操作系统',
  model: '型号',
  brand: '品牌',
  decided_time: '处理时间',
  prefix: '前缀',
  value: '值',
  key: '键',
};

/** Where a column means something else in one table. */
const TABLE_FIELD_NAMES: Readonly<Record<string, string>> = {
  'network.mode': '拨号模式',
  'network_member.mode': '拨号模式',
  'network_member.routing': '线路',
  'member.status': '启用状态',
  'ram_account.status': '启用状态',
  'account.status': '账号状态',
  'message.status': '已读',
  'auth_source.status': '启用状态',
  'network_fr.status': 'POP资源状态',
  'monitor_config.enable': '监控',
  'monitor_webhook.type': 'Webhook类型',
  'monitor_hook.type': 'Webhook类型',
  'monitor_hook.kinds': '告警类型',
  'monitor_hook.at_mobiles': '提及手机号',
  'monitor_hook.at_user_ids': '提及用户ID',
  'monitor_hook.at_all': '提及所有人',
  'ldap_config.mode': '目录模式',
  'ldap_config.type': '目录类型',
  'ldap_config.status': '启用状态',
  'support_ticket.status': '工单状态',
  'support_ticket.type': '工单类型',
  'network_fr.ticket_id': 'POP工单',
  'auth_source.type': '认证源类型',
  'api_token.scope': '权限范围',
  'device_approval.state': '审批状态',
};

const ON_OFF = { 0: '关闭', 1: '开启' } as const;
const YES_NO = { 0: '否', 1: '是' } as const;
const ENABLED = { 0: '停用', 1: '启用' } as const;
const DIAL_MODE = { 1: networkMessages.networkModeDefault, 2: networkMessages.networkModeCenter, 3: networkMessages.networkModePop } as const;

/** Stored codes as the console names them. */
const VALUE_TEXT: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  router_type: { 1: '硬件成员', 2: '软件成员' },
  member_type: { center: '中心', point: '分支' },
  network_type: { 1: '中心网络', 2: '点对点网络' },
  ncp_ciphers: { default: '默认', sm: '国密（SM）' },
  routing_type: { 1: '双主（负载均衡）', 2: '主备' },
  routing: { 1: '主线路', 2: '备线路' },
  default_route: { 0: '关闭', 1: '发布', 2: '接收' },
  'network_member.mode': DIAL_MODE,
  'network.mode': DIAL_MODE,
  'support_ticket.status': { 1: ticketMessages.supportStatusPending, 2: ticketMessages.supportStatusReplied, 3: ticketMessages.supportStatusClosed },
  'support_ticket.type': {
    1: ticketMessages.supportTypePlatform,
    2: ticketMessages.supportTypeNetworking,
    3: ticketMessages.supportTypeDevice,
    4: ticketMessages.supportTypeAccount,
    6: ticketMessages.supportTypeOther,
  },
  'auth_source.type': { wechat: authSourceMessages.authSourceTypeWechat, feishu: authSourceMessages.authSourceTypeFeishu, dingtalk: authSourceMessages.authSourceTypeDingtalk },
  'api_token.scope': { read: apiTokenMessages.apiTokenScopeRead, role: apiTokenMessages.apiTokenScopeRole },
  'ldap_config.mode': { public: ldapMessages.ldapModePublic, private: ldapMessages.ldapModePrivate },
  'ldap_config.type': { 1: ldapMessages.ldapTypeOpenLdap, 2: ldapMessages.ldapTypeAd },
  sync_mode: { 1: ldapMessages.ldapSyncManual, 2: ldapMessages.ldapSyncAuto },
  'network_fr.status': { 1: popMessages.popStatusValid, 2: popMessages.popStatusProcessing },
  'monitor_webhook.type': {
    dingtalk: monitorMessages.webhookTypeDingtalk,
    feishu: monitorMessages.webhookTypeFeishu,
    wecom: monitorMessages.webhookTypeWecom,
    other: monitorMessages.webhookTypeOther,
  },
  'monitor_hook.type': {
    dingtalk: monitorMessages.webhookTypeDingtalk,
    feishu: monitorMessages.webhookTypeFeishu,
    wecom: monitorMessages.webhookTypeWecom,
    other: monitorMessages.webhookTypeOther,
  },
  'monitor_hook.at_all': YES_NO,
  'device_approval.state': { waiting: deviceApprovalMessages.deviceApprovalWaiting, approved: deviceApprovalMessages.deviceApprovalApproved, refused: deviceApprovalMessages.deviceApprovalRefused },
  online_status: { 0: '离线', 1: '在线' },
  'member.status': ENABLED,
  'ram_account.status': ENABLED,
  'account.status': ENABLED,
  'auth_source.status': ENABLED,
  'message.status': YES_NO,
  quagga: ON_OFF,
  center_link: ON_OFF,
  interconnect: ON_OFF,
  enable: ON_OFF,
  enabled: ON_OFF,
  use_ssl: ON_OFF,
  use_tls: ON_OFF,
  software_auth_source: ON_OFF,
  auth_quagga: ON_OFF,
  auth_quagga_advanced: ON_OFF,
  auth_default_route: ON_OFF,
  router_online: ON_OFF,
  router_offline: ON_OFF,
  service_expired: ON_OFF,
  pop_connect: ON_OFF,
  portal_confirm: ON_OFF,
  email_confirm: ON_OFF,
  webhook_confirm: ON_OFF,
  email_verify: YES_NO,
  share: YES_NO,
  disabled: YES_NO,
  permission: { permit: '允许', deny: '拒绝' },
};

/** The ids a list reference holds ('[12,15]' → [12, 15]); none for anything else. */
export function referenceIds(v: Cell): number[] {
  if (typeof v !== 'string') return [];
  const list = parsedJson(v);
  return Array.isArray(list) ? list.filter((id): id is number => typeof id === 'number' && Number.isInteger(id) && id > 0) : [];
}

/** The names (or #ids) of a list reference as one text. */
export const auditNameList = (names: readonly string[]): string => names.join('、');

/** A column whose value is another row's id: the table of that row and the column that names it. */
export interface AuditReference {
  table: string;
  name: string;
  /** The value is a JSON list of ids (a point's chosen centers), named as a list. */
  list?: boolean;
}

const ROLE: AuditReference = { table: 'ram_role', name: 'name' };
const MEMBER: AuditReference = { table: 'member', name: 'router_name' };
const AREA: AuditReference = { table: 'network_fr_area', name: 'name' };
const SUPPORT_TICKET: AuditReference = { table: 'support_ticket', name: 'ticket_number' };

/**
 * Columns that hold another row's id (issue 31), per table where one means two things. The server
 * records the named row's name next to the id when the change is made (AuditField before_name /
 * after_name); the page shows that name, or "#id" for an entry without one.
 */
const REFERENCES: Readonly<Record<string, AuditReference>> = {
  role_id: ROLE,
  ram_id: { table: 'ram_account', name: 'username' },
  network_id: { table: 'network', name: 'network_name' },
  member_id: MEMBER,
  routing_secondary_id: MEMBER,
  link_centers: { ...MEMBER, list: true },
  network_fr_id: { table: 'network_fr', name: 'name' },
  ov_main: AREA,
  ov_backup: AREA,
  area_id: AREA,
  source_id: { table: 'auth_source', name: 'name' },
  ca_id: { table: 'ldap_file', name: 'file_name' },
  ticket_id: SUPPORT_TICKET,
  'network_fr.ticket_id': { table: 'network_ticket', name: 'network_ticket_number' },
  dialogue_id: { table: 'support_dialogue', name: '' },
};

/** The row a column's value names (role_id → its role's name), or undefined for a column that is no reference. */
export const auditReference = (table: string, field: string): AuditReference | undefined => {
  const key = `${table}.${field}`;
  return Object.hasOwn(REFERENCES, key) ? REFERENCES[key] : Object.hasOwn(REFERENCES, field) ? REFERENCES[field] : undefined;
};

/** Keys inside stored JSON (ip pools, segments, ports, role rights) by their console names. */
const JSON_KEY_NAMES: Readonly<Record<string, string>> = {
  router: '硬件成员',
  software: '软件成员',
  gateway: '网关',
  mask: '掩码',
  public_ip: '公网IP',
  public_port: '公网端口',
  static_port: '本地端口',
  center_router_name: '中心',
  pop: 'POP',
  center_link_network: '双中心互联',
  center_network: '中心',
  pop_software: 'POP软件成员',
  other: '其他',
  network: '网络',
  'easylink.router': '成员管理',
  'easylink.network': '网络管理',
  router_list: '成员',
  monitor: '监控',
  create: '新增',
  edit: '修改',
  delete: '删除',
  view: '查看',
  list: '列表',
};

/** A table's name as the audit page shows it ('网络'), or its own. */
export const auditTableName = (table: string): string => (Object.hasOwn(TABLE_NAMES, table) ? TABLE_NAMES[table]! : table);

/** A column's name the same in every table ('网络名称'), or its own. */
export const auditFieldName = (field: string): string => (Object.hasOwn(FIELD_NAMES, field) ? FIELD_NAMES[field]! : field);

/** A column's name in its table ('network_member.mode' → '拨号模式'), or as auditFieldName. */
export const auditFieldLabel = (table: string, field: string): string => {
  const key = `${table}.${field}`;
  return Object.hasOwn(TABLE_FIELD_NAMES, key) ? TABLE_FIELD_NAMES[key]! : auditFieldName(field);
};

/** Whether the page and the export show a column: not the tenant's own id, the same in every entry of its trail. */
export const auditFieldShown = (field: string): boolean => field !== 'tenant_id';

/** Whether the audit page names a column (the test that known fields never show raw). */
export const auditFieldKnown = (table: string, field: string): boolean => Object.hasOwn(TABLE_FIELD_NAMES, `${table}.${field}`) || Object.hasOwn(FIELD_NAMES, field);

/** 2000-01-01 in epoch ms: a smaller number in a time column is not an instant. */
const INSTANT_FROM_MS = 946_684_800_000;
/** Instants are stored as epoch milliseconds in columns named *_time or *_at: shown as dates, not numbers. */
export const isAuditInstant = (field: string, v: unknown): v is number => typeof v === 'number' && /(_time|_at)$/.test(field) && v >= INSTANT_FROM_MS;

/** A role's rights (create, edit, …) are 0/1 flags inside its JSON: read as 是/否. */
const FLAG_KEYS = new Set(['create', 'edit', 'delete', 'view']);

const jsonKey = (k: string) => (Object.hasOwn(JSON_KEY_NAMES, k) ? JSON_KEY_NAMES[k]! : Object.hasOwn(FIELD_NAMES, k) ? FIELD_NAMES[k]! : k);

/** A parsed JSON value as text: lists joined by 、, { gateway, mask } as a CIDR, other objects as "名称：值；…". */
function jsonText(v: unknown): string {
  if (v === null || v === undefined) return '无';
  if (typeof v === 'boolean') return v ? '是' : '否';
  if (typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return v.length === 0 ? '无' : v.map(jsonText).join('、');
  const o = v as Record<string, unknown>;
  const address = o.gateway ?? o.ip;
  const keys = Object.keys(o);
  if (typeof address === 'string' && typeof o.mask === 'number' && keys.length === 2) return `${address}/${o.mask}`;
  if (keys.length === 0) return '无';
  return keys.map((k) => `${jsonKey(k)}：${FLAG_KEYS.has(k) && (o[k] === 0 || o[k] === 1) ? (o[k] === 1 ? '是' : '否') : jsonText(o[k])}`).join('；');
}

/** Parses a stored text that is a JSON object or list; undefined for any other text. */
function parsedJson(v: string): unknown {
  const t = v.trim();
  if (!(t.startsWith('{') && t.endsWith('}')) && !(t.startsWith('[') && t.endsWith(']'))) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * One value of a change as the audit page shows it: '' for none, another row's id by the name
 * recorded with it (`name`, else "#id"), a code by its name, an instant through `time` (the page's or
 * the export's clock), JSON as text (see jsonText), any other as is.
 */
export function auditValueText(table: string, field: string, v: Cell, time: (ms: number) => string, name?: string): string {
  if (v === null || v === '') return '';
  const ref = auditReference(table, field);
  if (ref) return name || (ref.list ? auditNameList(referenceIds(v).map((id) => `#${id}`)) : v === 0 ? '' : `#${String(v)}`);
  if (isAuditInstant(field, v)) return time(v);
  const codes = VALUE_TEXT[`${table}.${field}`] ?? VALUE_TEXT[field];
  const code = typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
  if (codes && Object.hasOwn(codes, code)) return codes[code]!;
  if (typeof v === 'string') {
    const json = parsedJson(v);
    if (json !== undefined) return jsonText(json);
  }
  if (typeof v === 'boolean') return v ? '是' : '否';
  return String(v);
}
