/** What the service sends by SMS and email: verification codes and validation links. */
export const mailMessages = {
  codePurposeRegister: '注册账号',
  codePurposeFindPassword: '找回密码',
  codePurposeVerify: '身份验证',
  codePurposeBindPhone: '绑定手机',
  codePurposeBindEmail: '绑定邮箱',
  codePurposeEditPhone: '修改手机',
  codePurposeEditEmail: '修改邮箱',
  codePurposeEditPassword: '修改密码',
  codePurposeMemberChangePhone: '修改成员手机',
  codePurposeMemberBindPhone: '绑定成员手机',
  codeMailSubject: 'HubLink {what}验证码',
  codeMailBody: '您正在{what}，验证码为 {code}，{minutes}分钟内有效。如非本人操作，请忽略。',
  emailValidationSubject: 'HubLink 邮箱验证',
  emailValidationBody: '{purpose}，请在{hours}小时内打开以下链接完成邮箱验证：{link} 。如非本人操作，请忽略。',
} as const;
