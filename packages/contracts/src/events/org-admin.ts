import { z } from 'zod';
import { RoleOrGuestSchema } from '../common.ts';
import { defineEvent } from './define.ts';

const membership = z.object({ organization: z.string(), user: z.string() });

/** Events of the org-admin service (`quire.org-admin.<entity>.<verb>`). */
export const orgAdminEvents = {
  organizationCreated: defineEvent('org-admin', 'organization.created', z.object({ organization: z.string(), title: z.string(), createdBy: z.string().optional() })),
  organizationDeleted: defineEvent('org-admin', 'organization.deleted', z.object({ organization: z.string() })),
  memberAdded: defineEvent('org-admin', 'member.added', membership.extend({ role: RoleOrGuestSchema })),
  memberRoleChanged: defineEvent('org-admin', 'member.role-changed', membership.extend({ role: RoleOrGuestSchema, previousRole: RoleOrGuestSchema })),
  memberRemoved: defineEvent('org-admin', 'member.removed', membership),
  tokenRevoked: defineEvent('org-admin', 'token.revoked', z.object({ user: z.string(), token: z.string() })),
} as const;
