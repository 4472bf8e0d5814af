import { z } from 'zod';
import { TimestampSchema } from '../common.ts';

/** A page of the audit log: 20 entries unless asked, at most 100 (GitBook's bounds). */
export const AUDIT_PAGE_SIZE = { default: 20, max: 100 } as const;

/** GitBook's `AuditEventActor`: who made the change. */
export const AuditEventActorSchema = z
  .object({
    type: z
      .enum(['user', 'integration', 'installation', 'system', 'support'])
      .describe('Kind of actor that initiated the change'),
    id: z
      .string()
      .describe('Stable identifier of the actor (a user id; `instance-admin` for the instance admin token)'),
    label: z.string().optional().describe('Display label captured when the event was recorded'),
  })
  .describe('Who made the change');

/** GitBook's `AuditEventTarget`: the resource the change affected. */
export const AuditEventTargetSchema = z
  .object({
    type: z.string().describe('Kind of resource affected by the change (`space`, `change-request`, `organization`…)'),
    id: z.string().describe('Stable identifier of the affected resource'),
    label: z.string().optional().describe('Display label captured when the event was recorded'),
  })
  .describe('The resource the change affected');

export const AuditEventSchema = z.object({
  object: z.literal('audit-event'),
  id: z.uuid().describe('Unique identifier of the audit event'),
  occurredAt: TimestampSchema.describe('When the change was committed'),
  action: z.string().describe('Stable action name describing the recorded change (the operation: `spaces.create`)'),
  actor: AuditEventActorSchema,
  source: z
    .enum(['ui', 'api', 'integration', 'webhook', 'workflow', 'script', 'support'])
    .describe('Entry point that initiated the change'),
  target: AuditEventTargetSchema,
  urls: z.object({ location: z.string().describe('URL of the audit event in the API') }),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

/** What Quire records beside GitBook's fields, in `payload` of the event's details. */
export const AuditPayloadSchema = z
  .object({
    service: z.string().describe('The service that made the change'),
    operationId: z.string().describe('GitBook operationId of the API operation called'),
    tokenId: z.string().optional().describe('Id of the API token the call was made with'),
    requestId: z.string().optional().describe('The request id (`x-request-id`)'),
    ip: z.string().optional().describe('Client IP address, as the gateway saw it'),
    userAgent: z.string().optional().describe('Client User-Agent'),
    targets: z
      .array(AuditEventTargetSchema)
      .describe('Every resource the change concerned (the target, its parents, organizations)'),
    fields: z.array(z.string()).describe('Names of the input fields the call sent (never their values)'),
    events: z.array(z.string()).describe('Types of the domain events the change recorded'),
  })
  .catchall(z.unknown());

export const AuditEventDetailsSchema = AuditEventSchema.extend({
  executionId: z.string().optional().describe('Identifier of the operation that recorded the event (the request id)'),
  correlationId: z
    .string()
    .optional()
    .describe('Identifier shared by events produced by the same user action (the request id)'),
  schemaVersion: z.number().int().min(1).describe('Version of the action payload schema'),
  payload: AuditPayloadSchema.describe('Details of the change'),
});
export type AuditEventDetails = z.infer<typeof AuditEventDetailsSchema>;

export const AuditEventActionSchema = z.object({
  object: z.literal('audit-event-action'),
  id: z.string().describe('Stable action identifier stored on audit events'),
  label: z.string().describe('Human-readable label for the action'),
});

/** One recorded mutation, as it travels from the service that made it to org-admin (event `audit.recorded`). */
export const AuditRecordSchema = z.object({
  id: z.uuid().describe('The audit event id'),
  organization: z
    .string()
    .nullable()
    .describe('Organization the change belongs to; null for a change outside any (a user’s own API token)'),
  action: z.string(),
  service: z.string(),
  operationId: z.string(),
  actor: z.object({ type: AuditEventActorSchema.shape.type, id: z.string(), tokenId: z.string().optional() }),
  target: AuditEventTargetSchema,
  targets: z.array(AuditEventTargetSchema).max(50),
  occurredAt: TimestampSchema,
  requestId: z.string().max(128).optional(),
  ip: z.string().max(64).optional(),
  userAgent: z.string().max(512).optional(),
  fields: z.array(z.string().max(100)).max(100),
  events: z.array(z.string().max(100)).max(100),
});
export type AuditRecord = z.infer<typeof AuditRecordSchema>;
