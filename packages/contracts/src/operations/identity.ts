import { z } from 'zod';
import { EmptySchema, IdSchema, listOf, PageQueryShape, RoleOrGuestSchema, TimestampSchema } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId, tokenId, userId } from '../params.ts';
import { ActorSchema } from '../actor.ts';
import {
  EmailDomainsSchema,
  OrganizationHostnameSchema,
  OrganizationSchema,
  OrganizationTitleSchema,
} from '../schemas/organization.ts';
import { MergeRulesStandaloneInputSchema } from '../schemas/merge-rules.ts';
import { UserSchema } from '../schemas/user.ts';

const op = operationsOf('org-admin', { tags: ['users'] });

const EmailSchema = z.email().max(320).describe('E-mail address');
const DisplayNameSchema = z.string().trim().min(1).max(100).describe('Full name of the user');

export const getAuthenticatedUser = op({
  id: 'users.getMe',
  input: EmptySchema,
  output: UserSchema,
  http: { route: 'GET /user', operationId: 'getAuthenticatedUser', summary: 'Get profile of authenticated user' },
});

export const getUserById = op({
  id: 'users.get',
  access: 'reader',
  input: z.object({ userId }),
  output: UserSchema,
  http: {
    route: 'GET /users/{userId}',
    operationId: 'getUserById',
    summary:
      "Get a user: yourself, or someone sharing an organization with you (404 otherwise); a published site's reader " +
      "gets the members of the site's organization, without their e-mail",
  },
});

export const listOrganizationsForAuthenticatedUser = op({
  id: 'orgs.listForUser',
  input: z.object({ ...PageQueryShape }),
  output: listOf(OrganizationSchema),
  http: {
    route: 'GET /orgs',
    operationId: 'listOrganizationsForAuthenticatedUser',
    summary: 'List the organizations of the authenticated user',
    tags: ['organizations'],
  },
});

export const createOrganization = op({
  id: 'orgs.create',
  input: z.object({ title: OrganizationTitleSchema }),
  output: OrganizationSchema,
  http: {
    route: 'POST /orgs',
    status: 201,
    operationId: 'createOrganization',
    summary: 'Create an organization; the caller becomes its admin',
    tags: ['organizations'],
  },
});

export const getOrganizationById = op({
  id: 'orgs.get',
  input: z.object({ organizationId }),
  output: OrganizationSchema,
  http: {
    route: 'GET /orgs/{organizationId}',
    operationId: 'getOrganizationById',
    summary: 'Get an organization by its ID',
    tags: ['organizations'],
  },
});

export const updateOrganizationById = op({
  id: 'orgs.update',
  input: z.object({
    organizationId,
    title: OrganizationTitleSchema.optional(),
    emailDomains: EmailDomainsSchema.optional(),
    hostname: OrganizationHostnameSchema.optional(),
    defaultRole: RoleOrGuestSchema.optional(),
    inviteLinks: z.boolean().optional().describe('Enable invite links'),
    mergeRules: MergeRulesStandaloneInputSchema.optional().describe('Merge rules of the spaces that inherit them'),
  }),
  output: OrganizationSchema,
  http: {
    route: 'PATCH /orgs/{organizationId}',
    operationId: 'updateOrganizationById',
    summary: 'Update an organization',
    tags: ['organizations'],
  },
});

const TokenSchema = z.string().describe('The API token; shown once, store it now');
const TokenInfoSchema = z
  .object({
    object: z.literal('api-token'),
    id: z.string().describe('Unique identifier of the token'),
    label: z.string().describe('What the token is for'),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().optional().describe('Last time the token was used (minute precision)'),
  })
  .describe('ApiToken');

export const createApiToken = op({
  id: 'tokens.create',
  input: z.object({ label: z.string().trim().min(1).max(100).describe('What the token is for') }),
  output: z.object({ token: TokenSchema, info: TokenInfoSchema }),
  http: {
    route: 'POST /user/tokens',
    status: 201,
    operationId: 'createApiToken',
    summary: 'Create an API token for the authenticated user (Quire extension)',
  },
});

export const listApiTokens = op({
  id: 'tokens.list',
  input: z.object({ ...PageQueryShape }),
  output: listOf(TokenInfoSchema),
  http: {
    route: 'GET /user/tokens',
    operationId: 'listApiTokens',
    summary: 'List the API tokens of the authenticated user (Quire extension)',
  },
});

export const revokeApiToken = op({
  id: 'tokens.revoke',
  input: z.object({ tokenId }),
  output: z.void(),
  http: {
    route: 'DELETE /user/tokens/{tokenId}',
    status: 204,
    operationId: 'revokeApiToken',
    summary: 'Revoke an API token (Quire extension)',
  },
});

export const bootstrapInstance = op({
  id: 'admin.bootstrap',
  access: 'instance-admin',
  input: z.object({ title: OrganizationTitleSchema, email: EmailSchema, name: DisplayNameSchema.optional() }),
  output: z.object({ organization: OrganizationSchema, user: UserSchema, token: TokenSchema }),
  http: {
    route: 'POST /admin/bootstrap',
    status: 201,
    operationId: 'adminBootstrap',
    summary: 'Create an organization with a first admin user and token (instance admin, Quire extension)',
    tags: ['admin'],
  },
});

export const addUserToOrganization = op({
  id: 'admin.addUser',
  access: 'instance-admin',
  input: z.object({ organizationId, email: EmailSchema, role: RoleOrGuestSchema, name: DisplayNameSchema.optional() }),
  output: z.object({ user: UserSchema, token: TokenSchema }),
  http: {
    route: 'POST /admin/orgs/{organizationId}/users',
    status: 201,
    operationId: 'adminAddUser',
    summary: 'Add a user (created if new) to an organization and issue a token (instance admin, Quire extension)',
    tags: ['admin'],
  },
});

const OutboxMailSchema = z
  .object({
    object: z.literal('outbox-mail').describe('Always `outbox-mail`'),
    id: IdSchema,
    kind: z.enum(['sign-in', 'invite']).describe('What the mail is: a sign-in link or an invitation'),
    to: EmailSchema.describe('Whom it was for'),
    subject: z.string().describe('Its subject'),
    text: z.string().describe('Its text, the link included'),
    link: z.string().describe('The link it carries (a credential: whoever opens it signs in as its recipient)'),
    createdAt: TimestampSchema,
    expiresAt: TimestampSchema.describe('When its link stops working (then it leaves the outbox)'),
  })
  .describe('OutboxMail');

export const listOutboxMails = op({
  id: 'admin.listOutbox',
  access: 'instance-admin',
  input: z.object({ ...PageQueryShape }),
  output: listOf(OutboxMailSchema),
  http: {
    route: 'GET /admin/outbox',
    operationId: 'adminListOutbox',
    summary:
      'The mails the instance would have sent, newest first, while no SMTP server is configured: sign-in links ' +
      'and invitations whose link still works (instance admin, Quire extension)',
    tags: ['admin'],
  },
});

/** Gateway → org-admin: who holds this token (by its SHA-256)? */
export const resolveToken = op({
  id: 'auth.resolveToken',
  access: 'internal',
  /** Records when the token was last used. */
  type: 'mutation',
  input: z.object({ tokenHash: z.string().regex(/^[a-f0-9]{64}$/) }),
  output: z.object({ actor: ActorSchema.nullable() }),
});

/**
 * Gateway → org-admin: the keys of every token that resolves (active API tokens and the instance admin's; a key is
 * the first 16 hex digits of the token's SHA-256), a page
 * at a time from `after` (the `next` of the previous page). A gateway loads them at start and keeps them with
 * `token.issued` events: a bearer token whose key is not among them is refused without a lookup.
 */
export const listTokenKeys = op({
  id: 'auth.listTokenKeys',
  access: 'internal',
  input: z.object({
    after: z
      .string()
      .regex(/^[a-f0-9]{64}$/)
      .optional(),
    limit: z.number().int().min(1).max(50_000).default(10_000),
  }),
  output: z.object({
    keys: z.array(z.string().regex(/^[a-f0-9]{16}$/)),
    next: z
      .string()
      .regex(/^[a-f0-9]{64}$/)
      .nullable(),
  }),
});

/** Other services → org-admin: the users behind these ids (unknown ids are left out), for `createdBy`-style fields. */
export const getUsersByIds = op({
  id: 'users.getMany',
  access: 'internal',
  input: z.object({ ids: z.array(IdSchema).max(1000).describe('User ids') }),
  output: z.object({ items: z.array(UserSchema) }),
});
