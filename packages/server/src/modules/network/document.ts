import {
  DEFAULT_ROUTE,
  DOC_DEFAULT_ROUTE,
  DOC_DIAL_MODE,
  DOC_NETWORK_TYPE,
  fmt,
  M,
  NETWORK_DOCUMENT_KIND,
  POOL_KEYS,
  ROUTING_LINE,
  ROUTING_TYPE,
  type NetworkDocument,
  type NetworkSnapshot,
  type SnapshotMember,
} from '@hublink/contract';
import { invalid } from '../../core/errors';

/*
 * A network document (issue 36, contract networkCode.ts) and the network's snapshot (the history's
 * shape, which restore applies) turned into each other. Pure: the names of the POP resource and its
 * areas, which the snapshot keeps as ids, come in through `PopNames` and `PopIds`. An exported document
 * leaves out the optional blocks a network does not use, so it stays short.
 */

/** Default metric of an advertised default route (network_member.metric). */
const DEFAULT_METRIC = 30;

/** The POP names the snapshot's ids stand for, both ways. */
export interface PopNames {
  frName: string | null;
  areaName(id: number): string | null;
}

type Segment = { gateway: string; mask: number };
type Service = { public_ip: string; public_port: number; static_port: number };
type DocMember = NetworkDocument['centers'][number] | NetworkDocument['points'][number];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object without its unset parts ('' and 0 and null), or undefined when nothing is left. */
function given<T extends Record<string, unknown>>(o: T): Partial<T> | undefined {
  const out = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== '' && v !== 0)) as Partial<T>;
  return Object.keys(out).length > 0 ? out : undefined;
}

const segmentOf = (v: unknown): Segment | undefined => (isObject(v) && typeof v.gateway === 'string' && v.gateway !== '' ? { gateway: v.gateway, mask: Number(v.mask) } : undefined);
const serviceOf = (v: unknown) => (isObject(v) ? given({ public_ip: v.public_ip as string, public_port: v.public_port as number, static_port: v.static_port as number }) : undefined);

function memberDocument(m: SnapshotMember, pop: PopNames): DocMember {
  const areas = given({ main: (m.ov_main && pop.areaName(m.ov_main)) || undefined, backup: (m.ov_backup && pop.areaName(m.ov_backup)) || undefined });
  return {
    name: m.router_name,
    default_route: DOC_DEFAULT_ROUTE[m.default_route] ?? 'off',
    ...(m.default_route === DEFAULT_ROUTE.advertise ? { metric: m.metric } : {}),
    dynamic_routing: m.quagga === 1,
    dial_mode: DOC_DIAL_MODE[m.mode - 1] ?? 'default',
    ...(areas ? { pop_areas: areas } : {}),
  };
}

/** The network as a document: names only; the settings everyone has always, the optional blocks only where used. */
export function documentOf(s: NetworkSnapshot, pop: PopNames): NetworkDocument {
  const centers = s.members.filter((m) => m.member_type === 'center');
  const main = centers.find((m) => m.routing === ROUTING_LINE.main)?.router_name ?? '';
  const pool = isObject(s.ip_pool) ? given(Object.fromEntries(POOL_KEYS.map((k) => [k, typeof (s.ip_pool as Record<string, unknown>)[k] === 'string' ? (s.ip_pool as Record<string, string>)[k] : '']))) : undefined;
  const link = isObject(s.center_link_network) ? s.center_link_network : {};
  const doc: NetworkDocument = {
    kind: NETWORK_DOCUMENT_KIND,
    name: s.network_name,
    type: DOC_NETWORK_TYPE[s.network_type - 1] ?? 'hub',
    routing: s.routing_type === ROUTING_TYPE.mainBackup ? { type: 'main_backup', main, backup: s.routing_secondary } : { type: 'dual' },
    dns: s.dns,
    ciphers: s.ncp_ciphers as NetworkDocument['ciphers'],
    ...(pop.frName !== null ? { pop: { resource: pop.frName, line_mode: DOC_DIAL_MODE[s.mode - 1] ?? 'default' } } : {}),
    ...(pool ? { ip_pool: pool } : {}),
    ...(s.center_link === 1
      ? {
          center_link: given({
            center: link.center_router_name as string,
            gateway: link.gateway as string,
            mask: link.gateway ? (link.mask as number) : 0,
            public_ip: link.public_ip as string,
            public_port: link.public_port as number,
            static_port: link.static_port as number,
          }) ?? {},
        }
      : {}),
    ...(s.interconnect === 1 || segmentOf(s.interconnect_network)
      ? { interconnect: { enabled: s.interconnect === 1, ...(segmentOf(s.interconnect_network) ? { segment: segmentOf(s.interconnect_network) } : {}) } }
      : {}),
    prefixes: s.prefixes.map((p) => ({ ip: p.ip, mask: p.mask, name: p.name, permission: p.permission, ...(p.ge !== null ? { ge: p.ge } : {}), ...(p.le !== null ? { le: p.le } : {}) })),
    centers: centers.map((m) => {
      const gw = isObject(m.gateway) ? m.gateway : {};
      const fp = isObject(m.fixed_port) ? m.fixed_port : {};
      const segments = given({ router: segmentOf(gw.router), software: segmentOf(gw.software) });
      const ports = given({ router: serviceOf(fp.router), software: serviceOf(fp.software) });
      return { ...memberDocument(m, pop), ...(segments ? { segments } : {}), ...(ports ? { fixed_ports: ports } : {}) };
    }),
    points: s.members
      .filter((m) => m.member_type !== 'center')
      .map((m) => ({ ...memberDocument(m, pop), ...(m.link_centers ? { centers: m.link_centers } : {}) })),
  };
  return doc;
}

/** Where each member of the document is: its path, for refusals. */
export function memberPaths(doc: NetworkDocument): Map<string, string> {
  const out = new Map<string, string>();
  doc.centers.forEach((m, i) => out.set(m.name.toLowerCase(), `centers[${i}]`));
  doc.points.forEach((m, i) => out.set(m.name.toLowerCase(), `points[${i}]`));
  return out;
}

/** A path of the document as it is written: a.b[2].c. */
export function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), '');
}

/** The ids the document's POP names stand for, resolved by the caller (a refusal names the path). */
export interface PopIds {
  frId: number | null;
  areaId(path: string, name: string): number;
}

function memberSnapshot(d: DocMember, type: 'center' | 'point', routing: number, pop: PopIds, path: string): Omit<SnapshotMember, 'gateway' | 'fixed_port' | 'link_centers'> {
  const advertise = d.default_route === 'advertise';
  return {
    router_name: d.name,
    member_type: type,
    routing,
    default_route: DOC_DEFAULT_ROUTE.indexOf(d.default_route),
    metric: advertise ? (d.metric ?? DEFAULT_METRIC) : DEFAULT_METRIC,
    quagga: d.dynamic_routing ? 1 : 0,
    mode: DOC_DIAL_MODE.indexOf(d.dial_mode) + 1,
    ov_main: d.pop_areas?.main ? pop.areaId(`${path}.pop_areas.main`, d.pop_areas.main) : 0,
    ov_backup: d.pop_areas?.backup ? pop.areaId(`${path}.pop_areas.backup`, d.pop_areas.backup) : 0,
  };
}

const fullService = (s: { public_ip?: string; public_port?: number; static_port?: number } | undefined): Service | null =>
  s ? { public_ip: s.public_ip ?? '', public_port: s.public_port ?? 0, static_port: s.static_port ?? 0 } : null;

/**
 * The snapshot restore makes the network into. Names the document uses for its own parts (routing's
 * centers, points' centers, the twin link's center) must be its centers: a refusal names the path.
 */
export function snapshotFromDocument(doc: NetworkDocument, pop: PopIds): NetworkSnapshot {
  const centerNames = doc.centers.map((c) => c.name);
  const centerKey = new Map(centerNames.map((n) => [n.toLowerCase(), n]));
  const center = (path: string, name: string) => {
    const found = centerKey.get(name.toLowerCase());
    if (found === undefined) throw invalid(fmt(M.codeDocumentInvalid, { path, reason: fmt(M.codeCenterUnknown, { name }) }));
    return found;
  };
  const routing = doc.routing;
  const main = routing.type === 'main_backup' ? center('routing.main', routing.main) : '';
  const backup = routing.type === 'main_backup' ? center('routing.backup', routing.backup) : '';
  const link = doc.center_link;
  if (link?.center) center('center_link.center', link.center);
  return {
    network_name: doc.name,
    network_type: DOC_NETWORK_TYPE.indexOf(doc.type) + 1,
    routing_type: routing.type === 'main_backup' ? ROUTING_TYPE.mainBackup : ROUTING_TYPE.dual,
    routing_secondary: backup,
    dns: doc.dns,
    ncp_ciphers: doc.ciphers,
    mode: doc.pop ? DOC_DIAL_MODE.indexOf(doc.pop.line_mode) + 1 : 1,
    network_fr_id: pop.frId,
    ip_pool: { pop: '', center_link_network: '', center_network: '', pop_software: '', other: '', ...(doc.ip_pool ?? {}) },
    center_link: link ? 1 : 0,
    center_link_network: link
      ? { gateway: link.gateway ?? '', mask: link.gateway ? (link.mask ?? 0) : 0, public_ip: link.public_ip ?? '', public_port: link.public_port ?? 0, static_port: link.static_port ?? 0, center_router_name: link.center ?? '' }
      : null,
    interconnect: doc.interconnect?.enabled ? 1 : 0,
    interconnect_network: doc.interconnect?.segment ?? null,
    prefixes: doc.prefixes.map((p) => ({ ip: p.ip, mask: p.mask, name: p.name, permission: p.permission, ge: p.ge ?? null, le: p.le ?? null })),
    members: [
      ...doc.centers.map((c, i) => ({
        ...memberSnapshot(c, 'center', routing.type === 'main_backup' && c.name.toLowerCase() !== main.toLowerCase() ? ROUTING_LINE.backup : ROUTING_LINE.main, pop, `centers[${i}]`),
        gateway: { router: c.segments?.router ?? null, software: c.segments?.software ?? null },
        fixed_port: { router: fullService(c.fixed_ports?.router), software: fullService(c.fixed_ports?.software) },
        link_centers: null,
      })),
      ...doc.points.map((p, i) => {
        const chosen = new Set((p.centers ?? []).map((n, j) => center(`points[${i}].centers[${j}]`, n).toLowerCase()));
        const linked = centerNames.filter((n) => chosen.has(n.toLowerCase()));
        return {
          ...memberSnapshot(p, 'point', ROUTING_LINE.main, pop, `points[${i}]`),
          gateway: { router: null, software: null },
          fixed_port: { router: null, software: null },
          link_centers: p.centers === undefined || linked.length === centerNames.length ? null : linked,
        };
      }),
    ],
  };
}

/** The first path where two documents differ ('' when they are the same). */
export function firstDocumentDifference(a: unknown, b: unknown, path: PropertyKey[] = []): string | null {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDocumentDifference(a[i], b[i], [...path, i]);
      if (d !== null) return d;
    }
    return null;
  }
  if (isObject(a) && isObject(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])]) {
      const d = firstDocumentDifference(a[k], b[k], [...path, k]);
      if (d !== null) return d;
    }
    return null;
  }
  return a === b ? null : pathText(path) || '.';
}
