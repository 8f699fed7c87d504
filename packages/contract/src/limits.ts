/** The business constants of the spec (spec 1 §9 and the later documents), in one place. */
export const LIMITS = {
  captchaLength: 4,
  captchaTtlSeconds: 300,
  codeLength: 6,
  codeTtlSeconds: 600,
  codeMaxAttempts: 5,
  codeCooldownSeconds: 59,
  contactEmailCooldownSeconds: 60,
  nicknameMin: 2,
  nicknameMax: 12,
  occupationMax: 12,
  usernameMin: 6,
  usernameMax: 18,
  ramUsernameMax: 18,
  passwordMin: 6,
  passwordMax: 18,
  emailMin: 4,
  emailMax: 64,
  phoneMin: 4,
  mobileMax: 11,
  defaultAreaCode: '86',
  pageSize: 10,
  maxPageLimit: 100,
  searchMax: 64,
  pagerButtons: 5,
  tickerDefaultMs: 3000,
  tickerDashboardMs: 5000,
  submitGuardMs: 10_000,
  submitGuardLongMs: 60_000,
  submitGuardLdapModeMs: 3_000,
  /** Loading states of the networks area (its dialogs, the POP config page) clear after 60 s (spec 2 §4, §9). */
  networkLoadingClearMs: 60_000,
  /** The console's first render waits this long at most for its route's code (app/start.tsx). */
  firstRouteCodeWaitMs: 3_000,
  logRangeDays: 7,
  /** Rows one log export may carry, newest first (ours: bounds the workbook built in memory). */
  logExportRowsMax: 50_000,
  registerRedirectMs: 2000,
  bindReloadMs: 1500,
  requestTimeoutMs: 10_000,
  directoryTimeoutMs: 60_000,
  toastSeconds: 5,
  queryTokenTtlSeconds: 3600,
  /** The console refreshes its token when less than this is left. */
  tokenRefreshMarginSeconds: 300,
  mobileBreakpoint: 992,
  recoveryTtlSeconds: 900,
  /** A birthday on the account info form is at least this many days before today (spec 1 §5). */
  birthdayMinAgeDays: 100,
  signMin: 6,
  signMax: 12,
  /** Life of an emailed validation link (/validate/email?s=…). */
  emailValidationTtlSeconds: 86_400,
  /** Sub-accounts and roles (ours where the spec is silent). */
  roleNameMax: 32,
  roleNoteMax: 100,
  networkNumberMax: 64,
  roleNetworksMax: 200,
  /** The largest row id (a 32-bit integer column); a larger one cannot name a row. */
  maxId: 2_147_483_647,
  /** Dates the API takes ('yyyy-MM-dd': log ranges, birthdays) lie within these, both included. */
  dateMin: '1900-01-01',
  dateMax: '2100-12-31',
  messageTitleMax: 255,
  /** Characters of HTML a message or announcement may carry (after sanitising). */
  richTextMax: 200_000,
  /** Characters of a network document (networks as code, issue 36): a thousand members fit in a tenth of it. */
  networkDocumentMax: 1_000_000,
  announcementTitleMax: 255,
  announcementTagMax: 32,
  serviceNameMax: 64,
  // members (spec 3 §5, §9)
  memberNameMax: 18,
  memberPasswordMin: 6,
  memberPasswordMax: 18,
  memberNoteMax: 24,
  /** Notes longer than this are shown cut, with an ellipsis. */
  memberNoteShown: 18,
  importNoteMax: 20,
  /** An imported account is 3 to memberNameMax letters or digits (spec 3 §5 import notes). */
  importAccountMin: 3,
  /** Rows one bulk import file may carry (ours: the spec sets none; the import runs as a job, issue 16). */
  importRowsMax: 10_000,
  /** Members one bulk delete may name, in list mode or in its file (ours: one transaction answers it). */
  batchDeleteMax: 1000,
  /** A running import whose job has not reported for this long is taken as lost: the tenant may import again (ours). */
  importLeaseSeconds: 300,
  /** How often the console asks how a running import goes. */
  importPollMs: 1000,
  /** Finished imports (and their result rows) are kept this long (ours). */
  importKeepDays: 7,
  uploadMaxBytes: 2_097_152,
  /** XML an uploaded workbook may inflate to, counted as it inflates (a template filled with 10,000 rows is about 3 MB). */
  uploadMaxInflatedBytes: 8_388_608,
  /** Workbooks parsed at once by one server; later ones wait, up to uploadParsesWaiting of them. */
  uploadParsesPerInstance: 2,
  uploadParsesWaiting: 16,
  /** How long a tenant's upload holds its turn at most (an instance that dies holding it). */
  uploadTurnSeconds: 600,
  // networks (spec 2 §5, §9)
  networkNameMax: 24,
  popNetworkNameMax: 32,
  /** Network names longer than this are cut in status cards. */
  networkNameShown: 6,
  statusPollMs: 10_000,
  trafficReconnectMs: 10_000,
  trafficWindow: 40,
  /** Live traffic streams (WS /router/traffic) one tenant may hold open on one server instance (ours). */
  trafficStreamsPerTenant: 20,
  upgradeRedirectMs: 500,
  /** Members one network may list for the create form's pickers (ours). */
  memberPickerMax: 5000,
  /** DNS rows one network may ever hold, whatever its plan's dns_quantity (ours: bounds a request). */
  dnsRowsMax: 32,
  // SaaS devices (spec 3 §5, §9)
  saasBandwidthMax: 1_000_000,
  /** Analysis ranges: AppLog and OrigScrLog look back 1 h by default, the top views 6 h; at most 180 days back; top 30. */
  saasLogDefaultHours: 1,
  saasTopDefaultHours: 6,
  saasAnalysisDays: 180,
  saasTop: 30,
  /** Names the non-top views list at most (ours: bounds an answer). */
  saasLogRowsMax: 100,
  /** Hours of minute averages the traffic chart shows (ours). */
  saasTrafficHours: 24,
  /** Days flow and traffic minutes are kept: the analysis range. */
  saasHistoryDays: 180,
  /** The device status view's network carousel turns every this many ms (spec 3 §9). */
  carouselMs: 5000,
  /** Network names in status cards are cut after this many characters (spec 2 §9, spec 3 §9). */
  statusNetworkName: 6,
  // third-party sign-in sources (spec 3 §3, §5, §9; ours where the spec is silent)
  authSourceNameMax: 32,
  authSourceAppIdMax: 128,
  authSourceAppSecretMax: 256,
  authSourceAgentIdMax: 16,
  authSourceCorpIdMax: 128,
  /** Sources one tenant may configure. */
  authSourcesMax: 20,
  /** Characters of a tenant's ID code (the code a member's client enters). */
  authSourceCodeLength: 8,
  /** Life of a sign-in started at /auth_source/authorize until the provider calls back. */
  authSourceStateSeconds: 600,
  /** Life of the one-time ticket the client redeems at /auth_source/token. */
  authSourceTicketSeconds: 120,
  authSourceRedirectUriMax: 512,
  authSourceClientStateMax: 256,
  /**
   * Time a standard client's web sign-in (OpenVPN's WEB_AUTH) has, from the center's question to the
   * provider's callback: OpenVPN caps a pending authentication at its hand-window (60 s by default).
   */
  vpnWebSignInSeconds: 60,
  // a member's self-service page (issue 30; ours)
  /** Life of a member's self-service session (not renewed: the member signs in again). */
  selfSessionSeconds: 1800,
  /** Life of a single-use download link (the QR code a phone scans). */
  selfLinkSeconds: 600,
  /** Characters of the login and the password the page takes (a directory password may be long). */
  selfLoginMax: 64,
  selfPasswordMax: 128,
  /** Members one bound phone may name across tenants (a phone is unique only within a tenant): the password is tried on each. */
  selfPhoneMembersMax: 5,
  // LDAP directory sync (spec 3 §5, §9; ours where marked)
  ldapHostMax: 128,
  /** The port is typed as digits, at most this many. */
  ldapPortDigits: 5,
  ldapPortMax: 65_535,
  ldapBaseDnMax: 255,
  ldapUsernameMax: 128,
  /** The service account's password (spec 3 §5 says 32; issue 33 raises it: directory passwords are often long). */
  ldapPasswordMax: 128,
  /** User selection (issue 33; ours): a group's DN, a custom filter, an attribute's name. */
  ldapGroupDnMax: 255,
  ldapFilterMax: 1024,
  ldapAttributeMax: 64,
  /** Levels of nested groups followed below the chosen group, and entries looked up while walking them. */
  ldapGroupDepthMax: 10,
  ldapGroupLookupsMax: 5000,
  /** Users the preview shows, and users with a name problem it lists besides. */
  ldapPreviewShown: 10,
  /** A search of the directory's users shows at most this many. */
  ldapSearchShown: 10,
  /** A domain name: at most 253 characters, labels of at most 63. */
  ldapDomainMax: 253,
  ldapDomainLabelMax: 63,
  /** Entries per page of the directory's paged search (ours: bounds the memory of a sync). */
  ldapPageSize: 500,
  /** Minutes between two automatic syncs of a tenant (ours): the default, and what the form allows (issue 33: down to 5; at most a day). */
  ldapSyncCycleMinutes: 60,
  ldapSyncCycleMin: 5,
  ldapSyncCycleMax: 1440,
  /** Characters of a directory user's description kept (ours). */
  ldapDescriptionMax: 255,
  /** A member signing in to the gateway with its directory password waits this long for the directory (ours). */
  directorySignInTimeoutMs: 10_000,
  /** How long one tenant's sync holds its turn at most (an instance that dies holding it; ours). */
  ldapSyncTurnSeconds: 1800,
  /** Default-route metrics of spec 2 §9, priority 1 to 5 in this order. */
  defaultRouteMetrics: [30, 60, 90, 120, 150],
  // monitoring alerts, contacts and webhooks (spec 3 §5, §9; ours where the spec is silent)
  /** Contacts one tenant may have, and the characters of a contact's name. */
  contactsMax: 50,
  contactNameMax: 32,
  webhookUrlMax: 1024,
  webhookSecretMax: 256,
  /** Webhooks one tenant may have, the characters of a webhook's name, and whom one message may mention (per list). */
  webhooksMax: 10,
  webhookNameMax: 32,
  webhookMentionsMax: 20,
  webhookUserIdMax: 64,
  /** Devices one monitoring setting may name, and the characters of one name. */
  monitorRoutersMax: 5000,
  monitorRouterNameMax: 64,
  /** A webhook test answers within the console's request timeout (requestTimeoutMs). */
  webhookTestTimeoutMs: 8000,
  // support tickets (spec 3 §5, §9; ours where marked)
  supportTitleMin: 2,
  supportTitleMax: 32,
  supportContentMin: 10,
  /** Characters of an overview or a reply (ours). */
  supportContentMax: 2000,
  /** Characters of an appraisal's comment (ours). */
  supportAppraiseMax: 200,
  /** Stars of an appraisal: 1 to this. */
  supportGradeMax: 5,
  /** Images a ticket or one reply carries; each at most uploadMaxBytes, png, gif or jpeg. */
  supportImagesMax: 3,
  /** Entries one ticket's dialogue may hold (ours: bounds an answer; a longer matter takes a new ticket). */
  supportDialogueMax: 200,
  /** An upload not attached to a ticket or a reply within this long is removed (ours). */
  supportUploadTtlHours: 24,
  /** Uploads one tenant may hold unattached at once (ours: bounds what forms never submitted can store). */
  supportPendingUploadsMax: 30,
  /** Characters of an adviser's name on an operator's reply (ours). */
  supportAdviserMax: 32,
  // help documents and client downloads (spec 3 §2, §3, §7; ours: the spec gives no numbers)
  /** A help document's or section's title, in the menu and on the page. */
  documentTitleMax: 64,
  /** Nodes of the help menu (sections and documents), and how deep sections nest. */
  documentNodesMax: 500,
  documentDepthMax: 4,
  /** A Markdown file of the handbook (the index or one document), and one image it shows. */
  documentSourceMaxBytes: 262_144,
  documentImageMaxBytes: 1_048_576,
  /** How long a browser or proxy may keep the menu, a document and the download version list (images never change: a year). */
  documentCacheSeconds: 60,
  releaseVersionMax: 32,
  releaseNotesMax: 1000,
  releaseUrlMax: 1024,
  releaseFileNameMax: 128,
  /** A client package stored with the server (ours: a Linux or Windows installer is well under it). */
  releaseFileMaxBytes: 536_870_912,
  // the live overview on the dashboard (issue 18; ours)
  /** A member offline and unseen this long counts as "offline longer than a day". */
  overviewOfflineMs: 86_400_000,
  /** The overview counts the alerts raised this far back. */
  overviewAlertsMs: 86_400_000,
  // personal API tokens (issue 18; ours)
  /** Characters of a token's name. */
  apiTokenNameMax: 32,
  /** Tokens a tenant holds at once that are neither revoked nor expired. */
  apiTokensPerTenant: 20,
  /** The lifetimes a token can be given, in days (the longest is a year: no token lives for ever). */
  apiTokenExpiryDays: [7, 30, 90, 180, 365],
  /** The last use of a token is written at most this often (seconds), not on every call. */
  apiTokenLastUseSeconds: 60,
  // audit trail (issue 18; ours)
  /** Row changes one audit entry keeps (the rest are counted as "and M more"). */
  auditChangesMax: 20,
  /** Characters of one before/after value an entry keeps (config blobs are cut, with …). */
  auditValueMax: 200,
  /** Days an audit entry is kept: the default of a tenant's setting, and its bounds. */
  auditRetentionDays: 180,
  auditRetentionDaysMin: 7,
  auditRetentionDaysMax: 3650,
  /** Rows one audit export holds, newest first. */
  auditExportRowsMax: 10_000,
  // a settings change's preview (issue 36; ours)
  /** Above this many members a preview lists the members whose configuration changes but compares no reachability (it takes seconds per hundreds of members). */
  previewReachMaxMembers: 300,
} as const;
