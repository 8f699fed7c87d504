import { z } from 'zod';
import { changeEffect } from './changeEffect';
import { defineEndpoint } from './endpoint';
import { LIMITS } from './limits';
import { fmt, networkCodeMessages } from './messages';
import { networkNumberField } from './network';
import { versionDiffRow } from './networkHistory';
import { NCP_CIPHERS } from './networkSettings';

/*
 * Networks as code (issue 36): one network as a declarative document (YAML or JSON) that names its
 * members, POP resource and areas and never holds an internal id or a secret. Plan answers what
 * applying it would change (with the change's reachability effect) and apply makes exactly that, all
 * or nothing, through the same services the network detail's dialogs call. The network remembers the
 * last document applied to it, so what was changed outside it since (drift) is shown with who and when.
 * Ours: the spec is silent (docs/as-code.md).
 */

/** The document's kind line: the format and its version. */
export const NETWORK_DOCUMENT_KIND = 'hublink/network/v1';
export const NETWORK_DOCUMENT_FORMATS = ['yaml', 'json'] as const;
export type NetworkDocumentFormat = (typeof NETWORK_DOCUMENT_FORMATS)[number];

/** The words of the document for the numbers the database keeps. */
export const DOC_DEFAULT_ROUTE = ['off', 'advertise', 'receive'] as const;
export const DOC_DIAL_MODE = ['default', 'center_first', 'pop_first'] as const;
export const DOC_NETWORK_TYPE = ['hub', 'p2p'] as const;

const name = z.string().min(1);
const segment = z.strictObject({ gateway: z.string(), mask: z.number().int() });
const service = z.strictObject({ public_ip: z.string().optional(), public_port: z.number().int().optional(), static_port: z.number().int().optional() });

const memberSettings = {
  name,
  default_route: z.enum(DOC_DEFAULT_ROUTE).default('off'),
  /** Only with default_route advertise (30 unless given). */
  metric: z.number().int().optional(),
  dynamic_routing: z.boolean().default(false),
  dial_mode: z.enum(DOC_DIAL_MODE).default('default'),
  /** The POP resource's areas the member's main and backup lines use, by name. */
  pop_areas: z.strictObject({ main: name.optional(), backup: name.optional() }).optional(),
};

export const documentCenter = z.strictObject({
  ...memberSettings,
  /** The center's VPN segments for hardware routers and for software clients. */
  segments: z.strictObject({ router: segment.optional(), software: segment.optional() }).optional(),
  fixed_ports: z.strictObject({ router: service.optional(), software: service.optional() }).optional(),
});

export const documentPoint = z.strictObject({
  ...memberSettings,
  /** The centers the point links to by name; every center when left out. */
  centers: z.array(name).optional(),
});

export const networkDocument = z.strictObject({
  kind: z.literal(NETWORK_DOCUMENT_KIND, { error: fmt(networkCodeMessages.codeKindInvalid, { kind: NETWORK_DOCUMENT_KIND }) }),
  name,
  type: z.enum(DOC_NETWORK_TYPE).default('hub'),
  routing: z
    .discriminatedUnion('type', [z.strictObject({ type: z.literal('dual') }), z.strictObject({ type: z.literal('main_backup'), main: name, backup: name })])
    .default({ type: 'dual' }),
  dns: z.array(z.string()).default([]),
  ciphers: z.enum(NCP_CIPHERS).default('default'),
  /** The POP resource by name and the network's line mode. */
  pop: z.strictObject({ resource: name, line_mode: z.enum(DOC_DIAL_MODE).default('default') }).optional(),
  ip_pool: z
    .strictObject({ pop: z.string().optional(), center_link_network: z.string().optional(), center_network: z.string().optional(), pop_software: z.string().optional(), other: z.string().optional() })
    .optional(),
  /** The twin-center link; off when left out. */
  center_link: z
    .strictObject({
      center: name.optional(),
      gateway: z.string().optional(),
      mask: z.number().int().optional(),
      public_ip: z.string().optional(),
      public_port: z.number().int().optional(),
      static_port: z.number().int().optional(),
    })
    .optional(),
  interconnect: z.strictObject({ enabled: z.boolean(), segment: segment.optional() }).optional(),
  prefixes: z
    .array(z.strictObject({ ip: z.string(), mask: z.number().int(), name: z.string().default(''), permission: z.string(), ge: z.number().int().optional(), le: z.number().int().optional() }))
    .default([]),
  centers: z.array(documentCenter).default([]),
  points: z.array(documentPoint).default([]),
});
/** A document as written (defaults may be left out). */
export type NetworkDocumentInput = z.input<typeof networkDocument>;
/** A document with its defaults filled in. */
export type NetworkDocument = z.output<typeof networkDocument>;

const documentText = z
  .string({ error: networkCodeMessages.codeDocumentRequired })
  .min(1, networkCodeMessages.codeDocumentRequired)
  .max(LIMITS.networkDocumentMax, fmt(networkCodeMessages.codeDocumentTooLarge, { n: LIMITS.networkDocumentMax }));

/** A change made to the network outside the last applied document: by whom, when. */
export const driftVersion = z.object({ version: z.number(), create_time: z.string(), who: z.string(), summary: z.string() });

/** What differs from the last document applied to the network, field by field, and the versions that changed it. */
export const networkDrift = z.object({
  applied_version: z.number(),
  applied_time: z.string(),
  applied_by: z.string(),
  changes: z.array(versionDiffRow),
  versions: z.array(driftVersion),
});
export type NetworkDrift = z.infer<typeof networkDrift>;

/** GET: the network as a document. */
export const exportNetwork = defineEndpoint({
  path: '/network/export',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: z.object({ network_number: networkNumberField, format: z.enum(NETWORK_DOCUMENT_FORMATS, { error: networkCodeMessages.codeFormatInvalid }).default('yaml') }),
  response: z.object({ format: z.enum(NETWORK_DOCUMENT_FORMATS), file_name: z.string(), document: z.string() }),
});

/** The body of plan and apply: the document's text (YAML or JSON), for the network named, or for a new one when none is. */
const documentBody = z.object({ network_number: networkNumberField.optional(), document: documentText });

export const planAnswer = z.object({
  /** Null: applying creates the network. */
  network_number: z.string().nullable(),
  network_name: z.string(),
  /** Changed fields only, as the configuration history compares versions. */
  changes: z.array(versionDiffRow),
  members: z.object({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) }),
  /** The reachability effect (null for a new network). */
  effect: changeEffect.nullable(),
  drift: networkDrift.nullable(),
});
export type PlanAnswer = z.infer<typeof planAnswer>;

/** POST: what applying the document would change; changes nothing. */
export const planNetwork = defineEndpoint({
  path: '/network/plan',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: documentBody,
  response: planAnswer,
  changesNothing: true,
});

/** POST: makes the network what the document says, all of it or nothing; a refusal names the document's path. */
export const applyNetwork = defineEndpoint({
  path: '/network/apply',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: documentBody,
  response: z.object({ network_number: z.string(), version: z.number().nullable(), changed: z.boolean() }),
});

/** GET: the drift from the last applied document; null when none was applied. */
export const networkDriftOf = defineEndpoint({
  path: '/network/drift',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: z.object({ network_number: networkNumberField }),
  response: networkDrift.nullable(),
});
