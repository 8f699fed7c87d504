import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseSecretKey, type SecretKey } from './core/secretKey';
import { ConfigError } from './core/startupError';

export interface Brand {
  /** Shown in the top bar and the title. */
  name: string;
  /** One of the built-in logo variants. */
  logo: 'default' | 'blue' | 'green' | 'orange' | 'local';
  /** Own hosts show the copyright line, legal links, help docs and the brand in the ticket intro. */
  own: boolean;
  filing: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… or undefined for SQLite in the data dir. */
  databaseUrl?: string;
  redisUrl?: string;
  /** An S3-compatible bucket for files (core/storageS3.ts); unset: files under dataDir/storage. */
  s3Url?: string;
  smtpUrl?: string;
  mailFrom: string;
  devEndpoints: boolean;
  production: boolean;
  logLevel: string;
  /** Readable log lines (pino-pretty's worker thread): only when stdout is a terminal, unless LOG_FORMAT says otherwise. */
  prettyLogs: boolean;
  /**
   * HUBLINK_SLOW_REQUEST_MS: a request that takes longer is logged at warn (default 500); every other
   * request is logged at debug, errors always (README, "Logs").
   */
  slowRequestMs: number;
  /**
   * HUBLINK_WORKERS: server processes sharing the port (node:cluster; default the machine's cores in
   * production, 1 otherwise). Jobs run in the first one only.
   */
  workers: number;
  /**
   * DATABASE_POOL_SIZE: PostgreSQL connections per server process; unset: sized from the workers and
   * the server's max_connections (db/poolSize.ts, docs/performance.md).
   */
  databasePoolSize?: number;
  /**
   * DATABASE_NAMED_STATEMENTS: PostgreSQL statements prepared once per connection and run by name
   * (default on; `off` behind a pooler in transaction mode that cannot keep them, PgBouncer before 1.21).
   */
  databaseNamedStatements: boolean;
  /**
   * HUBLINK_SHUTDOWN_DELAY_SECONDS: on SIGTERM, serve on this long with /readyz answering 503 draining
   * before the listener closes, for balancers that probe /readyz (default 0: close at once).
   */
  shutdownDelaySeconds: number;
  /** Which of the HUBLINK_WORKERS processes this is (0 when one; set by the primary, core/cluster.ts). */
  workerIndex: number;
  timezone: string;
  /** Lifetime of an access token (seconds) and of the session it can be refreshed within. */
  tokenTtlSeconds: number;
  sessionTtlSeconds: number;
  brands: Record<string, Brand>;
  /** Directory of the built console; served when it exists. */
  webDist: string;
  /**
   * The help documents (HUBLINK_HANDBOOK_DIR; default the repository's docs/handbook): Markdown with an
   * index.md giving the menu, imported into an empty database on start (`hublink ops docs import` again).
   */
  handbookDir: string;
  /**
   * HUBLINK_TRUST_PROXY: `1` trusts every hop's X-Forwarded-For (the port reachable from the proxy
   * alone); a comma-separated list of addresses and CIDR ranges trusts only proxies among them.
   */
  trustProxy: boolean | string[];
  /** Requests to /api per client IP and minute (a safety net; login and codes have their own limits). */
  apiRateLimitPerMinute: number;
  /** Whether this instance runs background jobs (HUBLINK_JOBS=0: it only queues them, e.g. an API-only instance). */
  runJobs: boolean;
  /** This process among the instances (job runs record it). */
  instance: string;
  /**
   * How old an audited call's pending changes must be before the sweep writes its entry as interrupted
   * (HUBLINK_AUDIT_PENDING_GRACE_SECONDS, default 600): longer than any call runs, so only a dead
   * process's are taken.
   */
  auditPendingGraceMs: number;
  /**
   * How long an instance holds an event's delivery before another may take it
   * (HUBLINK_EVENT_LEASE_SECONDS, default 60, at least 5): what a crashed instance was delivering waits
   * this long after the crash. Longer than any event handler runs.
   */
  eventLeaseMs: number;
  /**
   * The key that seals private keys at rest (core/secretBox.ts), from HUBLINK_SECRET_KEY; unset: a key
   * generated into `<dataDir>/secret.key` on first start and reused afterwards.
   */
  secretKey?: SecretKey;
  /**
   * HUBLINK_ALLOW_PRIVATE_TARGETS=1: webhooks and domain checks may reach loopback and private addresses
   * (core/outbound.ts); default: refused, so a tenant cannot reach the operator's own network through us.
   */
  allowPrivateTargets: boolean;
  /**
   * Where /ldap/verify_domain looks for a domain's verification file: {domain} and {file} are filled in
   * (HUBLINK_LDAP_VERIFY_URL; default http://{domain}/{file}, the site's root).
   */
  ldapVerifyUrl: string;
  /**
   * The DNS servers /ldap/verify_domain asks for a domain's TXT record (HUBLINK_LDAP_VERIFY_DNS: a
   * comma-separated list of `address` or `address:port`); empty: the system's resolvers.
   */
  ldapVerifyDns: string[];
  /**
   * HUBLINK_METRICS=1: Prometheus metrics at /metrics (core/metrics.ts); off by default. On, they need
   * HUBLINK_METRICS_TOKEN (a bearer token on the main port) or HUBLINK_METRICS_PORT (a listener of
   * their own on HUBLINK_METRICS_HOST, default 127.0.0.1), so they are never public by accident.
   */
  metrics: boolean;
  metricsToken?: string;
  metricsPort?: number;
  metricsHost: string;
  /** HUBLINK_GATEWAY_METRICS=<seconds>: the gateway logs its message handling latency this often (the load benchmark reads it); unset: never. */
  gatewayMetricsSeconds?: number;
  /** HUBLINK_SQL_PROFILE=<file>: the time spent per SQL text is written there at exit (db/sqlProfile.ts; benches). */
  sqlProfileFile?: string;
  /**
   * HUBLINK_PUBLIC_URL: where users reach the console (`https://console.example.com`): links in mails
   * (contact email validation) and where sign-in sources send users back (shown as the address to
   * register with the provider); unset: the origin of the request at hand.
   */
  publicUrl?: string;
  /** HUBLINK_EGRESS_IPS: comma-separated addresses the server's outbound calls come from (a provider's IP allow list). */
  egressIps: string[];
  /** The open platforms' base URLs (the real hosts by default; tests point them at local servers). */
  authProviders: AuthProviderUrls;
  /** HUBLINK_ALERT_DEBOUNCE_SECONDS: how long a member must stay offline before its offline alert (default 60). */
  alertDebounceSeconds: number;
  /** HUBLINK_ALERT_RETRY_SECONDS: the wait before an alert delivery's second attempt, doubling after each failure (default 30). */
  alertRetrySeconds: number;
  /** HUBLINK_ALERT_ATTEMPTS: attempts of one alert delivery before it is given up (default 6). */
  alertAttempts: number;
  /**
   * HUBLINK_ALERT_GROUP_SECONDS: alerts for one webhook within this window go out as one summary message
   * (default 30; 0: one message per alert). The first alert on a quiet webhook goes at once, the
   * window's others together at its end (modules/monitor/dispatch.ts).
   */
  alertGroupSeconds: number;
  /**
   * The messages a webhook may take, per provider: each rule allows `max` attempts within `perMs`. The
   * providers' documented limits (WEBHOOK_RATES); not an environment setting (tests give smaller ones).
   */
  webhookRates: Record<string, WebhookRate[]>;
  /**
   * HTTPS_PROXY / HTTP_PROXY / NO_PROXY (and their lower-case spellings): the proxy outbound HTTP calls
   * go through (core/outbound.ts) and the hosts that go direct.
   */
  outboundProxy: OutboundProxy;
  /** The plan a new tenant starts on (DESIGN.md §5); the operator changes plans with `hublink ops`. */
  defaultPlan: { network_level: number; network_router_count: number; network_center_count: number; dns_quantity: number; ram_quantity: number };
}

export interface WebhookRate {
  max: number;
  perMs: number;
}

/**
 * The providers' documented limits for one robot: DingTalk custom robot 20 messages a minute, WeCom
 * group robot 20 a minute, Feishu custom bot 100 a minute and 5 a second; 'other' (the tenant's own
 * receiver) none.
 */
export const WEBHOOK_RATES: Record<string, WebhookRate[]> = {
  dingtalk: [{ max: 20, perMs: 60_000 }],
  wecom: [{ max: 20, perMs: 60_000 }],
  feishu: [
    { max: 100, perMs: 60_000 },
    { max: 5, perMs: 1000 },
  ],
  other: [],
};

export interface OutboundProxy {
  /** The proxy for http:// targets, and for https:// ones; undefined: direct. */
  http?: string;
  https?: string;
  /** Hosts that go direct: `*`, a host (and its subdomains), `.suffix`, `host:port`, an IP address or CIDR range. */
  noProxy: string[];
}

/** The proxy settings, the upper-case spelling first (curl's and most tools' reading). */
function outboundProxyOf(env: NodeJS.ProcessEnv): OutboundProxy {
  const proxyUrl = (name: string) => {
    const raw = env[name] || env[name.toLowerCase()];
    if (!raw) return undefined;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError(`${name} is not a URL (expected http://host:port)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must start with http:// or https://, not ${url.protocol}//`);
    return raw;
  };
  return {
    http: proxyUrl('HTTP_PROXY'),
    https: proxyUrl('HTTPS_PROXY'),
    noProxy: (env.NO_PROXY ?? env.no_proxy ?? '')
      .split(/[\s,]+/)
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  };
}

export interface AuthProviderUrls {
  /** HUBLINK_WECOM_LOGIN_URL: enterprise WeChat's web sign-in page host. */
  wecomLogin: string;
  /** HUBLINK_WECOM_API_URL: enterprise WeChat's server API. */
  wecomApi: string;
  /** HUBLINK_FEISHU_URL: Feishu's open platform (sign-in page and API). */
  feishu: string;
  /** HUBLINK_DINGTALK_LOGIN_URL: DingTalk's sign-in page host. */
  dingtalkLogin: string;
  /** HUBLINK_DINGTALK_API_URL: DingTalk's server API. */
  dingtalkApi: string;
}

/** An origin or base URL as configured: no trailing slash. */
const baseUrl = (v: string | undefined, fallback: string) => (v || fallback).replace(/\/+$/, '');

export const DEFAULT_BRANDS: Record<string, Brand> = {
  'hublink.cn': { name: 'HubLink', logo: 'default', own: true, filing: '京ICP备00000000号' },
  'console.hublink.cn': { name: 'HubLink', logo: 'blue', own: true, filing: '京ICP备00000000号' },
  'partner.hublink.cn': { name: 'HubLink 合作版', logo: 'green', own: false, filing: '京ICP备00000000号' },
  'oem.hublink.cn': { name: 'HubLink 企业版', logo: 'orange', own: false, filing: '京ICP备00000000号' },
  localhost: { name: 'HubLink', logo: 'local', own: true, filing: '京ICP备00000000号' },
};

const repoRoot = path.resolve(import.meta.dirname, '../../..');

function parseBrands(raw: string | undefined): Record<string, Brand> {
  if (!raw) return DEFAULT_BRANDS;
  const parsed = JSON.parse(raw) as Record<string, Partial<Brand>>;
  const brands: Record<string, Brand> = { localhost: DEFAULT_BRANDS.localhost! };
  for (const [host, b] of Object.entries(parsed)) {
    brands[host.toLowerCase()] = { name: 'HubLink', logo: 'default', own: false, filing: '', ...b };
  }
  return brands;
}

/** A whole number of at least `min` from the environment, or the default when unset. */
function numberOr(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be a whole number of at least ${min}, got '${raw}'`);
  return n;
}

/** The console's origin from HUBLINK_PUBLIC_URL: http(s), nothing after the host but an optional path. */
function publicUrlOf(raw: string): string {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`HUBLINK_PUBLIC_URL must be http(s), got '${raw}'`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** `1`/`0`/unset, or the proxies' addresses (IPv4/IPv6, optionally /prefix), checked so a typo fails the start. */
function trustProxyOf(raw: string | undefined): boolean | string[] {
  if (raw === undefined || raw === '' || raw === '0') return false;
  if (raw === '1') return true;
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of list) {
    const [address, prefix, extra] = entry.split('/');
    const family = net.isIP(address ?? '');
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (!family || !prefixOk || extra !== undefined) {
      throw new ConfigError(`HUBLINK_TRUST_PROXY must be 1, 0 or a comma-separated list of addresses and CIDR ranges, got '${entry}'`);
    }
  }
  return list;
}

/** At least this long, so a token is not guessed by trying. */
const METRICS_TOKEN_MIN = 16;

/** HUBLINK_METRICS and its guards: on only with a token or a port of its own. */
function metricsOf(env: NodeJS.ProcessEnv, port: number) {
  const metrics = env.HUBLINK_METRICS === '1';
  const metricsToken = env.HUBLINK_METRICS_TOKEN || undefined;
  const metricsPort = env.HUBLINK_METRICS_PORT ? numberOr(env, 'HUBLINK_METRICS_PORT', 0, 1) : undefined;
  if (metrics && !metricsToken && metricsPort === undefined) {
    throw new ConfigError('HUBLINK_METRICS=1 needs HUBLINK_METRICS_TOKEN (bearer token on the main port) or HUBLINK_METRICS_PORT (a port of their own)');
  }
  if (metricsToken !== undefined && metricsToken.length < METRICS_TOKEN_MIN) throw new ConfigError(`HUBLINK_METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN} characters`);
  if (metricsPort !== undefined && (metricsPort > 65535 || metricsPort === port)) throw new ConfigError(`HUBLINK_METRICS_PORT must be a port (1-65535) other than PORT, got '${metricsPort}'`);
  return { metrics, metricsToken, metricsPort, metricsHost: env.HUBLINK_METRICS_HOST || '127.0.0.1' };
}

/**
 * A service URL (DATABASE_URL, REDIS_URL) as configured, checked for form only: a URL with one of the
 * protocols. The value itself is never echoed (it may carry a password).
 */
function serviceUrl(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a URL (expected ${protocols[0]}//user@host:port/…)`);
  }
  if (!protocols.includes(url.protocol)) throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}, not ${url.protocol}//`);
  return raw;
}

/** Reads the environment once; nothing else in the server reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const devEndpoints = env.HUBLINK_DEV_ENDPOINTS === '1';
  if (devEndpoints && production) {
    throw new ConfigError('HUBLINK_DEV_ENDPOINTS=1 is refused when NODE_ENV=production');
  }
  const workerIndex = numberOr(env, 'HUBLINK_WORKER_INDEX', 0, 0);
  const port = Number(env.PORT ?? 8080);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.HUBLINK_DATA_DIR ?? 'data'),
    databaseUrl: serviceUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: serviceUrl(env, 'REDIS_URL', ['redis:', 'rediss:']),
    s3Url: env.S3_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'HubLink <no-reply@hublink.local>',
    devEndpoints,
    production,
    logLevel: env.LOG_LEVEL ?? 'info',
    prettyLogs: env.LOG_FORMAT === 'pretty' || (env.LOG_FORMAT !== 'json' && !production && process.stdout.isTTY === true),
    slowRequestMs: numberOr(env, 'HUBLINK_SLOW_REQUEST_MS', 500, 0),
    workers: numberOr(env, 'HUBLINK_WORKERS', production ? os.availableParallelism() : 1, 1),
    databasePoolSize: env.DATABASE_POOL_SIZE ? numberOr(env, 'DATABASE_POOL_SIZE', 10, 1) : undefined,
    databaseNamedStatements: env.DATABASE_NAMED_STATEMENTS !== 'off',
    workerIndex,
    shutdownDelaySeconds: numberOr(env, 'HUBLINK_SHUTDOWN_DELAY_SECONDS', 0, 0),
    timezone: env.HUBLINK_TIMEZONE ?? 'Asia/Shanghai',
    tokenTtlSeconds: Number(env.HUBLINK_TOKEN_TTL ?? 7200),
    sessionTtlSeconds: Number(env.HUBLINK_SESSION_TTL ?? 7 * 24 * 3600),
    brands: parseBrands(env.HUBLINK_BRANDS),
    webDist: path.resolve(env.HUBLINK_WEB_DIST ?? path.join(repoRoot, 'packages/web/dist')),
    handbookDir: path.resolve(env.HUBLINK_HANDBOOK_DIR || path.join(repoRoot, 'docs/handbook')),
    trustProxy: trustProxyOf(env.HUBLINK_TRUST_PROXY),
    apiRateLimitPerMinute: Number(env.HUBLINK_API_RATE_LIMIT ?? 1200),
    // Jobs, the scheduler and other once-only work run in the first worker only.
    runJobs: env.HUBLINK_JOBS !== '0' && workerIndex === 0,
    auditPendingGraceMs: numberOr(env, 'HUBLINK_AUDIT_PENDING_GRACE_SECONDS', 600, 0) * 1000,
    eventLeaseMs: numberOr(env, 'HUBLINK_EVENT_LEASE_SECONDS', 60, 5) * 1000,
    instance: env.HUBLINK_INSTANCE ? `${env.HUBLINK_INSTANCE}${workerIndex > 0 ? `-w${workerIndex}` : ''}` : `${os.hostname()}-${process.pid}`,
    secretKey: env.HUBLINK_SECRET_KEY ? parseSecretKey(env.HUBLINK_SECRET_KEY, 'HUBLINK_SECRET_KEY') : undefined,
    allowPrivateTargets: env.HUBLINK_ALLOW_PRIVATE_TARGETS === '1',
    ldapVerifyUrl: env.HUBLINK_LDAP_VERIFY_URL || 'http://{domain}/{file}',
    ldapVerifyDns: (env.HUBLINK_LDAP_VERIFY_DNS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    ...metricsOf(env, port),
    gatewayMetricsSeconds: Number(env.HUBLINK_GATEWAY_METRICS) > 0 ? Number(env.HUBLINK_GATEWAY_METRICS) : undefined,
    sqlProfileFile: env.HUBLINK_SQL_PROFILE || undefined,
    publicUrl: env.HUBLINK_PUBLIC_URL ? publicUrlOf(env.HUBLINK_PUBLIC_URL) : undefined,
    alertDebounceSeconds: numberOr(env, 'HUBLINK_ALERT_DEBOUNCE_SECONDS', 60, 0),
    alertRetrySeconds: numberOr(env, 'HUBLINK_ALERT_RETRY_SECONDS', 30, 1),
    alertAttempts: numberOr(env, 'HUBLINK_ALERT_ATTEMPTS', 6, 1),
    alertGroupSeconds: numberOr(env, 'HUBLINK_ALERT_GROUP_SECONDS', 30, 0),
    webhookRates: WEBHOOK_RATES,
    outboundProxy: outboundProxyOf(env),
    egressIps: (env.HUBLINK_EGRESS_IPS ?? '')
      .split(',')
      .map((ip) => ip.trim())
      .filter(Boolean),
    authProviders: {
      wecomLogin: baseUrl(env.HUBLINK_WECOM_LOGIN_URL, 'https://login.work.weixin.qq.com'),
      wecomApi: baseUrl(env.HUBLINK_WECOM_API_URL, 'https://qyapi.weixin.qq.com'),
      feishu: baseUrl(env.HUBLINK_FEISHU_URL, 'https://open.feishu.cn'),
      dingtalkLogin: baseUrl(env.HUBLINK_DINGTALK_LOGIN_URL, 'https://login.dingtalk.com'),
      dingtalkApi: baseUrl(env.HUBLINK_DINGTALK_API_URL, 'https://api.dingtalk.com'),
    },
    defaultPlan: { network_level: 1, network_router_count: 10, network_center_count: 2, dns_quantity: 2, ram_quantity: 10 },
  };
}
