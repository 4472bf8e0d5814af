import { randomUUID } from 'node:crypto';
import type { Actor, AnyOperation, AuditRecord, EventEnvelope } from '@quire/contracts';

/** Who called, as the gateway saw it: forwarded with the request id to the service that runs the call. */
export interface ClientInfo {
  ip?: string | undefined;
  userAgent?: string | undefined;
}

export const CLIENT_IP_HEADER = 'x-quire-client-ip';
export const CLIENT_UA_HEADER = 'x-quire-user-agent';
const MAX_IP = 64;
const MAX_UA = 512;
const MAX_LABEL = 200;
const MAX_TARGETS = 50;

/** The client info of a call, cut to what an audit record keeps (empty values dropped). */
export function clientInfo(ip: unknown, userAgent: unknown): ClientInfo {
  const info: ClientInfo = {};
  if (typeof ip === 'string' && ip) info.ip = ip.slice(0, MAX_IP);
  if (typeof userAgent === 'string' && userAgent) info.userAgent = userAgent.slice(0, MAX_UA);
  return info;
}

/**
 * Whether a procedure is audited: every mutation of the public API (an operation the gateway routes).
 * Internal mutations are part of a public call recorded where it entered (or the platform's own upkeep:
 * a token's last use), and queries change nothing.
 */
export const isAudited = (op: AnyOperation): boolean =>
  op.type === 'mutation' && op.http !== undefined && op.access !== 'internal';

/** An audit action: its stable id and its label. */
export interface AuditAction {
  id: string;
  label: string;
}

/** GitBook's action for an operation; with `event`, only when the call recorded that event (what it did). */
interface GitBookAction extends AuditAction {
  event?: string;
}

/**
 * GitBook's own action ids and labels, where its published list (gitbook.com/docs/account-and-billing/audit-logs/actions)
 * names the same change; every other action is the operation id (`spaces.create`) labelled with its summary.
 * GitBook's schema gives no list (`AuditEvent.action` is a string): only names read on that page are used, never
 * guessed ones. GitBook ids are past tense (`organization.team.created`), Quire's are operation ids (`<noun>.<verb>`),
 * so the two never collide. An operation that does one of two changes (`PUT …/teams/{teamId}/members/{userId}`
 * adds a member or changes their role) has one action per change, told apart by the events the call recorded: the
 * first whose event is among them, else the last. `PUT …/teams/{teamId}/members` (adds and removes in one call)
 * stays `teams.updateMembers`.
 */
export const GITBOOK_ACTIONS: Readonly<Record<string, readonly GitBookAction[]>> = {
  'orgs.update': [{ id: 'organization.settings.updated', label: 'Updated organization settings' }],
  'teams.create': [{ id: 'organization.team.created', label: 'Created organization team' }],
  'teams.delete': [{ id: 'organization.team.deleted', label: 'Deleted organization team' }],
  'teams.upsertMember': [
    { event: 'team.member-added', id: 'organization.team.member-added', label: 'Added organization team member' },
    { id: 'organization.team.member-updated', label: 'Updated organization team member' },
  ],
  'teams.deleteMember': [{ id: 'organization.team.member-removed', label: 'Removed organization team member' }],
  'siteRedirects.create': [{ id: 'site.redirect.created', label: 'Created site redirect' }],
};

const quireAction = (op: AnyOperation): AuditAction => ({ id: op.id, label: op.http?.summary ?? op.id });
const plain = ({ id, label }: AuditAction): AuditAction => ({ id, label });

/** Every action an operation's audit records may carry (one, or one per change it can make), with its label. */
export const auditActionsOf = (op: AnyOperation): AuditAction[] =>
  GITBOOK_ACTIONS[op.id]?.map(plain) ?? [quireAction(op)];

/** The action of one call of an operation, from the events it recorded. */
export function auditActionOf(op: AnyOperation, events: readonly { type: string }[] = []): AuditAction {
  const options = GITBOOK_ACTIONS[op.id];
  if (!options) return quireAction(op);
  const chosen =
    options.find((a) => a.event === undefined || events.some((e) => e.type === a.event)) ?? options.at(-1)!;
  return plain(chosen);
}

type Target = AuditRecord['target'];
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `changeRequestId` → `change-request`, `integrationName` → `integration`, `specSlug` → `spec`. */
export function targetTypeOfParam(name: string): string {
  const base = name.replace(/(Id|Name|Slug)$/, '') || name;
  return base.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/** A resource the output presents (`{object, id}`), itself or one of its top-level fields (`{token, info}`). */
function outputTarget(out: unknown): Target | undefined {
  const of = (v: Record<string, unknown>): Target | undefined => {
    const type = str(v.object);
    const id = str(v.id);
    if (!type || !id) return undefined;
    const label = str(v.title) ?? str(v.name) ?? str(v.label) ?? str(v.subject);
    return { type, id: id.slice(0, 100), ...(label ? { label: label.slice(0, MAX_LABEL) } : {}) };
  };
  if (!isRecord(out)) return undefined;
  const own = of(out);
  if (own) return own;
  for (const v of Object.values(out)) if (isRecord(v) && of(v)) return of(v);
  return undefined;
}

/** The organization a change belongs to: the path's, else the one its events name (a transfer's source), else the output's or the input's. */
function organizationOf(
  input: Record<string, unknown>,
  out: unknown,
  events: readonly EventEnvelope[],
): { organization: string | null; others: string[] } {
  const seen: string[] = [];
  let fromEvents: string | undefined;
  for (const e of events) {
    if (!isRecord(e.data)) continue;
    const previous = str(e.data.previousOrganization);
    const current = str(e.data.organization);
    fromEvents ??= previous ?? current;
    for (const o of [previous, current]) if (o && !seen.includes(o)) seen.push(o);
  }
  const organization =
    str(input.organizationId) ??
    fromEvents ??
    (isRecord(out) ? str(out.organization) : undefined) ??
    str(input.organization) ??
    null;
  return { organization, others: seen.filter((o) => o !== organization) };
}

function actorOf(actor: Actor): AuditRecord['actor'] {
  switch (actor.kind) {
    case 'user':
      return { type: 'user', id: actor.userId, ...(actor.tokenId ? { tokenId: actor.tokenId } : {}) };
    case 'instance-admin':
      return { type: 'system', id: 'instance-admin' };
    case 'service':
      return { type: 'system', id: `service:${actor.service}` };
    case 'reader':
      return { type: 'system', id: `reader:${actor.reader.site}` };
    default:
      return { type: 'system', id: 'anonymous' };
  }
}

export interface AuditCall {
  actor: Actor;
  requestId: string;
  client?: ClientInfo | undefined;
}

/**
 * The audit record of one mutation, from what the mold knows of it: the operation, its input and output, the
 * caller and the domain events it recorded. The target is the resource the output presents, else the last
 * path parameter, else the organization; `targets` lists it with every other id the call named (path,
 * `…Id` fields, organizations of its events), for the `target` filter. Input values are never kept, only
 * the names of the fields sent. Every string is cut to the record's limits, so building one never fails.
 */
export function auditRecordOf(
  op: AnyOperation,
  rawInput: unknown,
  out: unknown,
  call: AuditCall,
  events: readonly EventEnvelope[],
  now = new Date(),
): AuditRecord {
  const input = isRecord(rawInput) ? rawInput : {};
  const pathParams = [...(op.http?.path.matchAll(/\{(\w+)\}/g) ?? [])].map((m) => m[1]!);
  const { organization, others } = organizationOf(input, out, events);
  const targets: Target[] = [];
  const add = (t: Target | undefined) => {
    if (t && targets.length < MAX_TARGETS && !targets.some((x) => x.type === t.type && x.id === t.id))
      targets.push({ ...t, id: t.id.slice(0, 100) });
  };
  add(outputTarget(out));
  for (const name of [...pathParams].reverse()) {
    const value = str(input[name]);
    if (value) add({ type: targetTypeOfParam(name), id: value });
  }
  for (const [name, value] of Object.entries(input)) {
    if (!pathParams.includes(name) && /Id$/.test(name) && str(value))
      add({ type: targetTypeOfParam(name), id: str(value)! });
  }
  if (organization) add({ type: 'organization', id: organization });
  for (const o of others) add({ type: 'organization', id: o });
  const actor = actorOf(call.actor);
  if (targets.length === 0)
    add(actor.type === 'user' ? { type: 'user', id: actor.id } : { type: 'instance', id: 'instance' });
  return {
    id: randomUUID(),
    organization,
    action: auditActionOf(op, events).id,
    service: op.service,
    operationId: op.http?.operationId ?? op.id,
    actor,
    target: targets[0]!,
    targets,
    occurredAt: now.toISOString(),
    ...(call.requestId ? { requestId: call.requestId.slice(0, 128) } : {}),
    ...(call.client?.ip ? { ip: call.client.ip.slice(0, MAX_IP) } : {}),
    ...(call.client?.userAgent ? { userAgent: call.client.userAgent.slice(0, MAX_UA) } : {}),
    fields: Object.keys(input)
      .filter((k) => !pathParams.includes(k))
      .slice(0, 100)
      .map((k) => k.slice(0, 100)),
    events: [...new Set(events.map((e) => e.type.slice(0, 100)))].slice(0, 100),
  };
}

/** Files a record that had no organization under `organization` (found by the service), naming it among its targets. */
export function placeInOrganization(record: AuditRecord, organization: string | null): void {
  if (!organization) return;
  record.organization = organization;
  if (
    !record.targets.some((t) => t.type === 'organization' && t.id === organization) &&
    record.targets.length < MAX_TARGETS
  )
    record.targets.push({ type: 'organization', id: organization });
}
