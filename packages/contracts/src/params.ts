import { z } from 'zod';
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
export const sessionId = IdSchema.describe('The unique id of the sign-in session');
export const changeRequestId = IdSchema.describe('The unique id of the change request, or its number in the space');
export const revisionId = IdSchema.describe('The unique id of the revision');
export const pageId = IdSchema.describe('The unique id of the page');
export const fileId = IdSchema.describe('The unique id of the file');
export const specSlug = IdSchema.describe('The slug of the OpenAPI specification');
export const openAPISpecVersionId = IdSchema.describe('The unique id of the OpenAPI specification version');
export const pagePath = z.string().min(1).max(2048).describe('Path of the page in the revision (slugs joined by `/`)');
