import { IdSchema } from './common.ts';

/** Path parameters shared by the operations, described once. */
export const organizationId = IdSchema.describe('The unique id of the organization');
export const spaceId = IdSchema.describe('The unique id of the space');
export const collectionId = IdSchema.describe('The unique id of the collection');
export const userId = IdSchema.describe('The unique id of the user');
export const teamId = IdSchema.describe('The unique id of the team');
export const samlProviderId = IdSchema.describe('The unique id of the SAML provider');
export const translationSettingsId = IdSchema.describe('The unique id of the translation settings');
export const tokenId = IdSchema.describe('The unique id of the token');
export const specSlug = IdSchema.describe('The slug of the OpenAPI specification');
export const openAPISpecVersionId = IdSchema.describe('The unique id of the OpenAPI specification version');
