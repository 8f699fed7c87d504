/** Services (spec 1 §2.10). */
export const serviceMessages = {
  // messages, announcements, services (spec 1 §2.9, §2.10; ours where the spec is silent)
  serviceNameRequired: '请输入服务名称',
  serviceNameTooLong: '服务名称不能超过{n}个字符',
  serviceQuantityInvalid: '服务数量必须为正整数',
  serviceTimeInvalid: '服务时间错误',
  serviceExpiryBeforeStart: '到期时间必须晚于开始时间',
  serviceColName: '服务名称',
  serviceColQuantity: '数量',
  serviceColStart: '开始时间',
  serviceColExpired: '到期时间',
} as const;
