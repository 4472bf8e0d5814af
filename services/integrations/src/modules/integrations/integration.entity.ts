import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn, timestampColumns } from '@quire/kit';
import type { Integration as IntegrationDto, IntegrationConfigurations, IntegrationVisibility } from '@quire/contracts';

/** A stored image of an integration (icon, preview): its blob key and content type. */
export interface StoredImage {
  key: string;
  contentType: string;
  extension: string;
}

/** The current version of a published integration. Secrets are sealed (AES-256-GCM, the kit's `SecretBox`). */
export const Integration = defineEntity({
  name: 'Integration',
  tableName: 'integration',
  properties: {
    name: p.string().primary(),
    ownerId: p.string(),
    version: p.integer(),
    title: p.string(),
    description: p.string(),
    summary: p.string().nullable(),
    visibility: p.string().$type<IntegrationVisibility>(),
    target: p.string().$type<IntegrationDto['target']>(),
    runtime: p.string().$type<'v1' | 'v2'>(),
    scopes: p.json<IntegrationDto['scopes']>(),
    categories: p.json<IntegrationDto['categories']>(),
    blocks: p.json<IntegrationDto['blocks']>(),
    contentSources: p.json<IntegrationDto['contentSources']>(),
    externalLinks: p.json<IntegrationDto['externalLinks']>(),
    configurations: p.json<IntegrationConfigurations>(),
    contentSecurityPolicy: p.json<string | Record<string, string>>().nullable(),
    /** Hosts of the blocks' `urlUnfurl` patterns (the `blockDomain` filter). */
    blockDomains: p.json<string[]>(),
    icon: p.json<StoredImage>().nullable(),
    previewImages: p.json<StoredImage[]>(),
    scriptKey: p.string(),
    secrets: p.string().nullable(),
    ...timestampColumns(),
  },
});
export type IIntegration = InferEntity<typeof Integration>;

/** One published version, kept when the integration is republished (gone with the integration). */
export const IntegrationVersion = defineEntity({
  name: 'IntegrationVersion',
  tableName: 'integration_version',
  properties: {
    ...idColumn(),
    integrationName: p.string(),
    version: p.integer(),
    /** The publication as published (every field but the script, the images' bytes and the secrets). */
    manifest: p.json<Record<string, unknown>>(),
    scriptKey: p.string(),
    publishedBy: p.string(),
    publishedAt: p.datetime(),
  },
});
export type IIntegrationVersion = InferEntity<typeof IntegrationVersion>;
