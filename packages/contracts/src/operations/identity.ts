import { z } from 'zod';
import { EmptySchema, IdSchema, listOf, PageQueryShape, RoleOrGuestSchema } from '../common.ts';
import { defineOperation } from '../operation.ts';
import { ActorSchema } from '../actor.ts';
import { EmailDomainsSchema, OrganizationHostnameSchema, OrganizationSchema, OrganizationTitleSchema } from '../schemas/organization.ts';
import { UserSchema } from '../schemas/user.ts';

const organizationId = IdSchema.describe('The unique id of the organization');
const EmailSchema = z.email().max(320).describe('E-mail address');
const DisplayNameSchema = z.string().trim().min(1).max(100).describe('Full name of the user');

export const getAuthenticatedUser = defineOperation({
  id: 'users.me',
  service: 'org-admin',
  access: 'user',
  input: EmptySchema,
  output: UserSchema,
  http: { method: 'GET', path: '/user', status: 200, operationId: 'getAuthenticatedUser', summary: 'Get profile of authenticated user', tags: ['users'] },
});

export const listOrganizationsForAuthenticatedUser = defineOperation({
  id: 'orgs.listForUser',
  service: 'org-admin',
  access: 'user',
  input: z.object({ ...PageQueryShape }),
  output: listOf(OrganizationSchema),
  http: { method: 'GET', path: '/orgs', status: 200, operationId: 'listOrganizationsForAuthenticatedUser', summary: 'List the organizations of the authenticated user', tags: ['organizations'] },
});

export const createOrganization = defineOperation({
  id: 'orgs.create',
  service: 'org-admin',
  access: 'user',
  input: z.object({ title: OrganizationTitleSchema }),
  output: OrganizationSchema,
  http: { method: 'POST', path: '/orgs', status: 201, operationId: 'createOrganization', summary: 'Create an organization; the caller becomes its admin', tags: ['organizations'] },
});

export const getOrganizationById = defineOperation({
  id: 'orgs.get',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId }),
  output: OrganizationSchema,
  http: { method: 'GET', path: '/orgs/{organizationId}', status: 200, operationId: 'getOrganizationById', summary: 'Get an organization by its ID', tags: ['organizations'] },
});

export const updateOrganizationById = defineOperation({
  id: 'orgs.update',
  service: 'org-admin',
  access: 'user',
  input: z.object({
    organizationId,
    title: OrganizationTitleSchema.optional(),
    emailDomains: EmailDomainsSchema.optional(),
    hostname: OrganizationHostnameSchema.optional(),
    defaultRole: RoleOrGuestSchema.optional(),
    inviteLinks: z.boolean().optional().describe('Enable invite links'),
  }),
  output: OrganizationSchema,
  http: { method: 'PATCH', path: '/orgs/{organizationId}', status: 200, operationId: 'updateOrganizationById', summary: 'Update an organization', tags: ['organizations'] },
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

export const createApiToken = defineOperation({
  id: 'tokens.create',
  service: 'org-admin',
  access: 'user',
  input: z.object({ label: z.string().trim().min(1).max(100).describe('What the token is for') }),
  output: z.object({ token: TokenSchema, info: TokenInfoSchema }),
  http: { method: 'POST', path: '/user/tokens', status: 201, operationId: 'createApiToken', summary: 'Create an API token for the authenticated user (Quire extension)', tags: ['users'] },
});

export const listApiTokens = defineOperation({
  id: 'tokens.list',
  service: 'org-admin',
  access: 'user',
  input: z.object({ ...PageQueryShape }),
  output: listOf(TokenInfoSchema),
  http: { method: 'GET', path: '/user/tokens', status: 200, operationId: 'listApiTokens', summary: 'List the API tokens of the authenticated user (Quire extension)', tags: ['users'] },
});

export const revokeApiToken = defineOperation({
  id: 'tokens.revoke',
  service: 'org-admin',
  access: 'user',
  input: z.object({ tokenId: IdSchema.describe('The unique id of the token') }),
  output: z.void(),
  http: { method: 'DELETE', path: '/user/tokens/{tokenId}', status: 204, operationId: 'revokeApiToken', summary: 'Revoke an API token (Quire extension)', tags: ['users'] },
});

export const bootstrapInstance = defineOperation({
  id: 'admin.bootstrap',
  service: 'org-admin',
  access: 'instance-admin',
  input: z.object({ title: OrganizationTitleSchema, email: EmailSchema, name: DisplayNameSchema.optional() }),
  output: z.object({ organization: OrganizationSchema, user: UserSchema, token: TokenSchema }),
  http: { method: 'POST', path: '/admin/bootstrap', status: 201, operationId: 'adminBootstrap', summary: 'Create an organization with a first admin user and token (instance admin, Quire extension)', tags: ['admin'] },
});

export const addUserToOrganization = defineOperation({
  id: 'admin.addUser',
  service: 'org-admin',
  access: 'instance-admin',
  input: z.object({ organizationId, email: EmailSchema, role: RoleOrGuestSchema, name: DisplayNameSchema.optional() }),
  output: z.object({ user: UserSchema, token: TokenSchema }),
  http: { method: 'POST', path: '/admin/orgs/{organizationId}/users', status: 201, operationId: 'adminAddUser', summary: 'Add a user (created if new) to an organization and issue a token (instance admin, Quire extension)', tags: ['admin'] },
});

/** Gateway → org-admin: who holds this token (by its SHA-256)? */
export const resolveToken = defineOperation({
  id: 'auth.resolveToken',
  service: 'org-admin',
  access: 'internal',
  input: z.object({ tokenHash: z.string().regex(/^[a-f0-9]{64}$/) }),
  output: z.object({ actor: ActorSchema.nullable() }),
});
