import { z } from 'zod';
import { listOf, queryNumber } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId } from '../params.ts';
import {
  AUDIT_PAGE_SIZE,
  AuditEventActionSchema,
  AuditEventDetailsSchema,
  AuditEventSchema,
} from '../schemas/audit.ts';

const op = operationsOf('org-admin', { tags: ['organizations'] });

/**
 * An ISO date-time bound of the log. The format lets through a year 0 (the calendar has none) and offsets
 * up to ±23:59 (time zones end at ±14:00; PostgreSQL refuses past ±15:59): both refused here.
 */
const bound = (description: string) =>
  z.iso
    .datetime({ offset: true })
    .refine((v) => !v.startsWith('0000'), 'There is no year 0')
    .refine((v) => !/[+-](1[6-9]|2\d):?\d{2}$/.test(v), 'A time zone offset is at most ±15:59')
    .optional()
    .describe(description);

export const listOrganizationAuditEvents = op({
  id: 'auditEvents.list',
  input: z.object({
    organizationId,
    page: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .describe('Identifier of the page of results to fetch (the `next.page` of the previous page)'),
    limit: queryNumber(z.number().int().min(1).max(AUDIT_PAGE_SIZE.max))
      .optional()
      .describe(`Number of events to return, up to ${AUDIT_PAGE_SIZE.max} (default ${AUDIT_PAGE_SIZE.default})`),
    from: bound('Include events occurring at or after this time (ISO 8601)'),
    to: bound('Include events occurring at or before this time (ISO 8601)'),
    action: z.string().min(1).max(100).optional().describe('Filter by an exact audit action name (`spaces.create`)'),
    actor: z.string().min(1).max(100).optional().describe('Filter by an exact stable actor identifier (a user id)'),
    target: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('Filter by an exact stable target identifier (any resource the change concerned)'),
  }),
  output: listOf(AuditEventSchema),
  http: {
    route: 'GET /orgs/{organizationId}/audit-events',
    operationId: 'listOrganizationAuditEvents',
    summary: 'List the audit events of an organization, newest first (organization admins)',
  },
});

export const getOrganizationAuditEvent = op({
  id: 'auditEvents.get',
  input: z.object({
    organizationId,
    auditEventId: z.string().min(1).max(100).describe('Unique identifier of the audit event'),
  }),
  output: AuditEventDetailsSchema,
  http: {
    route: 'GET /orgs/{organizationId}/audit-events/{auditEventId}',
    operationId: 'getOrganizationAuditEvent',
    summary: 'Get an audit event of an organization (organization admins)',
  },
});

export const listOrganizationAuditEventActions = op({
  id: 'auditEvents.listActions',
  input: z.object({ organizationId }),
  output: z.object({ items: z.array(AuditEventActionSchema) }),
  http: {
    route: 'GET /orgs/{organizationId}/audit-event-actions',
    operationId: 'listOrganizationAuditEventActions',
    summary: 'List the audit event actions (organization admins)',
  },
});
