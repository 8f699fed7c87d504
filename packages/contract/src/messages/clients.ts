/** Standard OpenVPN clients: profiles, re-issue, onboarding (issue 30). Our own texts; the spec is silent. */
export const clientsMessages = {
  profileSoftwareOnly: '只有软件成员可以下载配置文件',
  profileNotReady: '该成员在此网络中的配置尚未生成，请稍后再试',
  profileDownload: '下载配置文件',
  profileReissue: '重新签发',
  profileReissueConfirm: '重新签发后，旧配置文件立即失效，正在使用的连接会被断开。确定重新签发？',
  profileReissued: '已重新签发，请下载新的配置文件',
  profileChooseNetwork: '选择网络',
  profileNoNetwork: '该成员尚未加入任何网络',
  // What a standard client is told when a center refuses it (OpenVPN's AUTH_FAILED text).
  clientNotInNetwork: '账号不存在或已移出网络',
  clientCertificateRevoked: '证书已失效，请重新下载配置文件',
  clientDisabled: '账号已禁用',
  clientLoginRequired: '请输入账号和密码',
  clientLoginMismatch: '账号与配置文件不符',
  clientTooManyAttempts: '失败次数过多，请稍后再试',
  clientDirectoryUnavailable: '目录服务暂不可用，请稍后再试',
  clientWrongPassword: '账号或密码错误',
} as const;
