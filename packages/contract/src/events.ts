import { z } from 'zod';
import { AUDIT_SOURCES, AUDIT_WHO, auditObject, auditRowChange } from './audit';
import { changeEffect } from './changeEffect';

/**
 * Domain events: what happened, written in the transaction that made it happen and delivered to the
 * modules that subscribe after commit (server core/events.ts). Payloads carry ids and the facts a
 * subscriber needs, never secrets; a subscriber that needs more reads the current rows.
 * Every event belongs to one tenant (tenant_id); events of one tenant reach each subscriber in order.
 */
const tenant = { tenant_id: z.number().int().nonnegative() };
const id = z.number().int().positive();

/** What a network.changed event says changed. */
export const NETWORK_CHANGES = ['created', 'edited', 'deleted', 'members', 'links', 'settings'] as const;
export type NetworkChange = (typeof NETWORK_CHANGES)[number];

/** What member.changed names when a member's certificates were re-issued and its old ones revoked. */
export const MEMBER_CERTIFICATE_FIELD = 'certificate';

export const EVENTS = {
  /** A member (hardware router or software client) was added, one by one or in a batch. */
  'member.created': z.object({ ...tenant, member_id: id, router_type: z.number().int() }),
  /** A member's settings changed; `fields` names what changed (e.g. 'password', 'note', 'phone'). */
  'member.changed': z.object({ ...tenant, member_id: id, fields: z.array(z.string()).min(1) }),
  /** The member is gone with its network rows; `network_ids` are the networks it was in (read before the delete). */
  'member.deleted': z.object({ ...tenant, member_id: id, network_ids: z.array(id) }),
  /**
   * A network was created, edited, deleted, its members or links changed, or one of its detail settings
   * (routing, DNS, default route, ciphers, dial mode, dynamic routing); `change` says which.
   */
  'network.changed': z.object({
    ...tenant,
    network_id: id,
    change: z.enum(NETWORK_CHANGES),
  }),
  /** A command was queued for a member's device (member_command, state queued): the device gateway delivers it. */
  'member.command_queued': z.object({ ...tenant, member_id: id, network_id: id, command_id: id, kind: z.string() }),
  /**
   * The compiler stored new configuration versions for members of a network (`member_ids`, new or
   * changed) and dropped those of members who left (`removed_member_ids`): the gateway pushes them.
   */
  'member_config.changed': z.object({
    ...tenant,
    network_id: id,
    network_number: z.string(),
    member_ids: z.array(id),
    removed_member_ids: z.array(id),
  }),
  /**
   * A network's certificates changed: `member_ids` got new ones, and with `crl` its CRL was rebuilt (a
   * certificate revoked), which its centers must load. The gateway sends the members concerned their files.
   */
  'network_pki.changed': z.object({ ...tenant, network_id: id, member_ids: z.array(id), crl: z.boolean() }),
  /**
   * A member's device came online: its first open gateway session began (a second session of a member
   * already online says nothing). `at` is when, epoch ms. The monitoring alerts follow these.
   */
  'member.online': z.object({ ...tenant, member_id: id, at: z.number().int().nonnegative() }),
  /** A member's device went offline: its last open gateway session ended (closed, timed out, or its instance died). */
  'member.offline': z.object({ ...tenant, member_id: id, at: z.number().int().nonnegative() }),
  /** A member's device reported a session to a POP up (the online log's pop mode). */
  'pop.connected': z.object({ ...tenant, member_id: id, pop_name: z.string(), area: z.string(), at: z.number().int().nonnegative() }),
  /** A main account (ram_id null) or a sub-account signed in. */
  'account.signed_in': z.object({ ...tenant, ram_id: id.nullable() }),
  /** A main account or a sub-account (ram_id) can no longer sign in. */
  'account.disabled': z.object({ ...tenant, ram_id: id.nullable() }),
  /**
   * An authenticated mutating call succeeded: the audit trail's entry (issue 18), and for a
   * sub-account (ram_id) its operation log. Events written before issue 18 carry only tenant_id,
   * ram_id, path and msg: everything after msg is optional so they still parse.
   */
  'operation.performed': z.object({
    ...tenant,
    ram_id: id.nullable(),
    path: z.string(),
    msg: z.string(),
    who: z.enum(AUDIT_WHO).optional(),
    /** The personal API token the call was made with (who 'token'). */
    token_id: id.optional(),
    /** That token's name when the call was made. */
    token_name: z.string().optional(),
    /** The operator's name (who 'operator'). */
    operator: z.string().optional(),
    ip: z.string().optional(),
    user_agent: z.string().optional(),
    source: z.enum(AUDIT_SOURCES).optional(),
    method: z.string().optional(),
    object: auditObject.optional(),
    changes: z.array(auditRowChange).optional(),
    /** Row changes beyond those carried. */
    more: z.number().int().nonnegative().optional(),
    /** A network settings call's effect (issue 36), as its version keeps it. */
    effect: changeEffect.optional(),
  }),
  /**
   * A network work order reached status 3 (completed). For an access-POP order (type 1001) the pop module
   * creates the POP resource with the ordered areas and gives it to the network; `attributes` is the
   * order's { bandwidth, pop, expired_time, pop_conf } as stored.
   */
  'network_ticket.completed': z.object({
    ...tenant,
    ticket_id: id,
    network_number: z.string(),
    network_ticket_type: z.number().int(),
    attributes: z.record(z.string(), z.unknown()),
  }),
  /** A POP resource was created (by a completed access-POP order); the network module makes it the network's when it has none. */
  'pop.created': z.object({ ...tenant, network_fr_id: id, network_number: z.string().nullable() }),
  /**
   * Directory users were imported as software members (ldap) and the tenant's LDAP configuration names
   * a network: the network module adds them to it as points, with its own rules and quota.
   */
  'ldap.members_imported': z.object({ ...tenant, network_number: z.string().min(1), member_ids: z.array(id).min(1) }),
  /** An emailed validation link was confirmed: the address is proven for `subject` / `subject_id`. */
  'email.validated': z.object({ ...tenant, subject: z.string(), subject_id: z.string(), email: z.string() }),
  /**
   * A monitoring alert's in-app delivery: the message module writes it into the message centre once
   * per alert_id (type 'alert'). `content` is HTML (the message module sanitises it).
   */
  'alert.raised': z.object({ ...tenant, alert_id: id, title: z.string(), content: z.string() }),
  /**
   * An adviser of the service answered a support ticket (dialogue_id is the answer): the message module
   * tells the tenant in the message centre (type 'ticket'), once per answer.
   */
  'ticket.replied': z.object({ ...tenant, ticket_id: id, dialogue_id: id, ticket_number: z.string(), ticket_title: z.string(), adviser: z.string() }),
} as const;

export type EventType = keyof typeof EVENTS;
export type EventPayload<T extends EventType> = z.output<(typeof EVENTS)[T]>;
/** One event: its type and its payload. */
export type DomainEvent<T extends EventType = EventType> = { [K in T]: { type: K } & EventPayload<K> }[T];

export const EVENT_TYPES = Object.keys(EVENTS) as EventType[];
export const isEventType = (t: string): t is EventType => Object.hasOwn(EVENTS, t);
