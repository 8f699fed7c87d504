import os from 'node:os';
import path from 'node:path';
import { parseSecretKey, type SecretKey } from './core/secretKey';

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
  prettyLogs: boolean;
  timezone: string;
  /** Lifetime of an access token (seconds) and of the session it can be refreshed within. */
  tokenTtlSeconds: number;
  sessionTtlSeconds: number;
  brands: Record<string, Brand>;
  /** Directory of the built console; served when it exists. */
  webDist: string;
  trustProxy: boolean;
  /** Requests to /api per client IP and minute (a safety net; login and codes have their own limits). */
  apiRateLimitPerMinute: number;
  /** Whether this instance runs background jobs (HUBLINK_JOBS=0: it only queues them, e.g. an API-only instance). */
  runJobs: boolean;
  /** This process among the instances (job runs record it). */
  instance: string;
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
  /** HUBLINK_GATEWAY_METRICS=<seconds>: the gateway logs its message handling latency this often (the load benchmark reads it); unset: never. */
  gatewayMetricsSeconds?: number;
  /** The plan a new tenant starts on (DESIGN.md §5); the operator changes plans with `hublink ops`. */
  defaultPlan: { network_level: number; network_router_count: number; network_center_count: number; dns_quantity: number; ram_quantity: number };
}

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

/** Reads the environment once; nothing else in the server reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const devEndpoints = env.HUBLINK_DEV_ENDPOINTS === '1';
  if (devEndpoints && production) {
    throw new Error('HUBLINK_DEV_ENDPOINTS=1 is refused when NODE_ENV=production');
  }
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.HUBLINK_DATA_DIR ?? 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    s3Url: env.S3_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'HubLink <no-reply@hublink.local>',
    devEndpoints,
    production,
    logLevel: env.LOG_LEVEL ?? 'info',
    prettyLogs: !production && env.LOG_FORMAT !== 'json',
    timezone: env.HUBLINK_TIMEZONE ?? 'Asia/Shanghai',
    tokenTtlSeconds: Number(env.HUBLINK_TOKEN_TTL ?? 7200),
    sessionTtlSeconds: Number(env.HUBLINK_SESSION_TTL ?? 7 * 24 * 3600),
    brands: parseBrands(env.HUBLINK_BRANDS),
    webDist: path.resolve(env.HUBLINK_WEB_DIST ?? path.join(repoRoot, 'packages/web/dist')),
    trustProxy: env.HUBLINK_TRUST_PROXY === '1',
    apiRateLimitPerMinute: Number(env.HUBLINK_API_RATE_LIMIT ?? 1200),
    runJobs: env.HUBLINK_JOBS !== '0',
    instance: env.HUBLINK_INSTANCE || `${os.hostname()}-${process.pid}`,
    secretKey: env.HUBLINK_SECRET_KEY ? parseSecretKey(env.HUBLINK_SECRET_KEY, 'HUBLINK_SECRET_KEY') : undefined,
    allowPrivateTargets: env.HUBLINK_ALLOW_PRIVATE_TARGETS === '1',
    ldapVerifyUrl: env.HUBLINK_LDAP_VERIFY_URL || 'http://{domain}/{file}',
    gatewayMetricsSeconds: Number(env.HUBLINK_GATEWAY_METRICS) > 0 ? Number(env.HUBLINK_GATEWAY_METRICS) : undefined,
    defaultPlan: { network_level: 1, network_router_count: 10, network_center_count: 2, dns_quantity: 2, ram_quantity: 10 },
  };
}
