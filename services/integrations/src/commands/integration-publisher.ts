import {
  Events,
  INTEGRATION_ICON_MAX_BYTES,
  INTEGRATION_PREVIEW_MAX_BYTES,
  type OperationInput,
  type ops,
} from '@quire/contracts';
import { newId, recordEvent, type BlobStore, type EntityManager, type SecretBox } from '@quire/kit';
import { blockDomainsOf } from '../modules/integrations/block-domains.ts';
import {
  Integration,
  IntegrationVersion,
  type IIntegration,
  type StoredImage,
} from '../modules/integrations/integration.entity.ts';
import { decodeImage } from '../modules/integrations/image-type.ts';

type PublishInput = Omit<OperationInput<typeof ops.publishIntegration>, 'organization'>;

export interface IntegrationPublisherProps {
  /** The publication (validated by the contract and `assertValidConfigurations`). */
  input: PublishInput;
  /** The owner organization (checked by the caller: its admins publish). */
  ownerId: string;
  /** The current version, when republishing (same owner, checked by the caller). */
  existing: IIntegration | null;
  blobs: BlobStore;
  box: SecretBox;
  publishedBy: string;
  now?: Date;
}

async function storeImage(blobs: BlobStore, base64: string, field: string, maxBytes: number): Promise<StoredImage> {
  const image = decodeImage(base64, field, maxBytes);
  const { key } = await blobs.put(image.bytes, image.contentType);
  return { key, contentType: image.contentType, extension: image.extension };
}

/** The AAD binding sealed secrets to their integration (a ciphertext copied to another row does not open). */
export const secretsAad = (name: string) => `integration:${name}`;

/**
 * Publishes an integration (version 1) or a new version of it: images and script to the blob store (images
 * type-checked from their bytes), secrets sealed (kept from the previous version when not given), the
 * version kept in `integration_version`, `integration.published` to the outbox.
 */
export async function integrationPublisher(em: EntityManager, props: IntegrationPublisherProps): Promise<IIntegration> {
  const { input, existing } = props;
  const now = props.now ?? new Date();
  const files = await storeFiles(props.blobs, input);
  const secrets =
    input.secrets !== undefined
      ? props.box.seal(JSON.stringify(input.secrets), secretsAad(input.integrationName))
      : (existing?.secrets ?? null);
  const fields = publishedFields(input, existing, files, secrets, now);

  let integration: IIntegration;
  if (existing) {
    integration = existing;
    em.assign(integration, fields);
  } else {
    integration = em.create(Integration, {
      name: input.integrationName,
      ownerId: props.ownerId,
      createdAt: now,
      ...fields,
    });
  }
  keepVersion(em, { integration, input, files, publishedBy: props.publishedBy, now });
  recordEvent(em, Events.integrationPublished, {
    integration: integration.name,
    organization: integration.ownerId,
    version: integration.version,
    visibility: integration.visibility,
  });
  return integration;
}

/** The files of a publication in the blob store: its icon, preview images and script. */
interface StoredFiles {
  icon: StoredImage | null;
  previewImages: StoredImage[];
  scriptKey: string;
}

async function storeFiles(blobs: BlobStore, input: PublishInput): Promise<StoredFiles> {
  const icon =
    input.icon !== undefined ? await storeImage(blobs, input.icon, 'icon', INTEGRATION_ICON_MAX_BYTES) : null;
  const previewImages: StoredImage[] = [];
  for (const [n, image] of (input.previewImages ?? []).entries())
    previewImages.push(await storeImage(blobs, image, `previewImages.${n}`, INTEGRATION_PREVIEW_MAX_BYTES));
  const { key: scriptKey } = await blobs.put(
    Buffer.from(input.script, 'utf8'),
    'application/javascript; charset=utf-8',
  );
  return { icon, previewImages, scriptKey };
}

/** The integration's fields as this publication sets them (defaults for what it leaves out). */
function publishedFields(
  input: PublishInput,
  existing: IIntegration | null,
  files: StoredFiles,
  secrets: string | null,
  now: Date,
) {
  return {
    version: (existing?.version ?? 0) + 1,
    title: input.title,
    description: input.description,
    summary: input.summary ?? null,
    visibility: input.visibility ?? 'public',
    target: input.target ?? 'all',
    runtime: input.runtime ?? 'v1',
    scopes: [...new Set(input.scopes)],
    categories: [...new Set(input.categories ?? [])],
    blocks: input.blocks ?? [],
    contentSources: input.contentSources ?? [],
    externalLinks: input.externalLinks ?? [],
    configurations: input.configurations ?? {},
    contentSecurityPolicy: input.contentSecurityPolicy ?? null,
    blockDomains: blockDomainsOf(input.blocks ?? []),
    icon: files.icon,
    previewImages: files.previewImages,
    scriptKey: files.scriptKey,
    secrets,
    updatedAt: now,
  } satisfies Partial<IIntegration>;
}

/** Keeps the published version in `integration_version`: its manifest (secret names only) and files. */
function keepVersion(
  em: EntityManager,
  props: { integration: IIntegration; input: PublishInput; files: StoredFiles; publishedBy: string; now: Date },
): void {
  const { integration, input, files } = props;
  const { script: _script, icon: _icon, previewImages: _previews, secrets: _secrets, ...manifest } = input;
  em.create(IntegrationVersion, {
    id: newId(),
    integrationName: integration.name,
    version: integration.version,
    manifest: {
      ...manifest,
      secretNames: Object.keys(input.secrets ?? {}),
      icon: files.icon?.key ?? null,
      previewImages: files.previewImages.map((p) => p.key),
    },
    scriptKey: files.scriptKey,
    publishedBy: props.publishedBy,
    publishedAt: props.now,
  });
}
