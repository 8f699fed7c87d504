/** Labels of the network detail's settings dialogs (spec 2 §2, §4; ours where the spec gives no text). */
export const networkSettingsUiMessages = {
  // line main/backup (spec 2 §4: 1 dual primary, 2 main-backup)
  netSetRoutingType: '线路模式',
  netSetRoutingDual: '双主（负载均衡）',
  netSetRoutingMainBackup: '主备',
  // the summary's line main/backup: main-backup names its main line
  netSetRoutingMainBackupOf: '主备（主线路：{name}）',
  netSetRoutingMain: '主线路',
  netSetRoutingBackup: '备线路',
  // DNS
  netSetDnsRow: 'DNS',
  netSetDnsAdd: '添加DNS',
  netSetDnsRemove: '删除',
  netSetDnsEmpty: '暂无DNS，保存后将清空',
  // ciphers: the spec's "sm, the national crypto standard"
  netSetCiphersSm: '国密（SM）',
  // dial mode
  netSetModeTitle: '拨号模式',
  netSetModeMember: '成员',
  netSetModeMemberPick: '请选择成员',
  netSetMode: '拨号模式',
  // default route (spec 2 §3, §4: priority 1 to 5 only for advertise)
  netSetRouteEdit: '编辑',
  netSetRouteTitle: '默认路由：{name}',
  netSetRouteModel: '模式',
  netSetRoutePriority: '优先级',
  netSetRoutePriorityN: '优先级{n}',
  // dynamic routing (spec 2 §4: toggles after confirmation; one-click enable and disable)
  netSetQuaggaOn: '是否开启{name}的动态路由?',
  netSetQuaggaOff: '是否关闭{name}的动态路由?',
  netSetQuaggaSwitch: '{name}的动态路由',
  netSetQuaggaAllOn: '一键开启',
  netSetQuaggaAllOff: '一键关闭',
  netSetQuaggaAllOnConfirm: '是否开启全部成员的动态路由?',
  netSetQuaggaAllOffConfirm: '是否关闭全部成员的动态路由?',
  // member commands
  netSetKickConfirm: '是否将{name}踢下线?',
  netSetRespawnConfirm: '是否重启{name}的服务?',
  netSetResend: '重新下发配置',
  netSetResendConfirm: '是否向全部成员重新下发配置?',
} as const;
