import type { Actor, Integration as IntegrationDto, OperationOutput, ops } from '@quire/contracts';
import type { DownloadLinks, PublicUrls } from '@quire/kit';
import type { IIntegration, StoredImage } from './integration.entity.ts';
import { factsOf } from './integration.loader.ts';
import { integrationPermissions } from './integration.policy.ts';

export interface PresentContext {
  actor: Actor;
  urls: PublicUrls;
  downloads: DownloadLinks;
}

/** A signed link to a stored image (valid one hour: the gateway serves it without the API token). */
const imageUrl = (ctx: PresentContext, name: string, image: StoredImage, label: string) =>
  ctx.downloads.url({
    key: image.key,
    contentType: image.contentType,
    filename: `${name}-${label}.${image.extension}`,
  });

/** An integration as the caller sees it; never its script nor its secrets. */
export async function presentIntegration(ctx: PresentContext, i: IIntegration): Promise<IntegrationDto> {
  return {
    object: 'integration',
    name: i.name,
    version: i.version,
    title: i.title,
    description: i.description,
    ...(i.summary !== null ? { summary: i.summary } : {}),
    previewImages: await Promise.all(i.previewImages.map((img, n) => imageUrl(ctx, i.name, img, `preview-${n + 1}`))),
    target: i.target,
    verified: false,
    visibility: i.visibility,
    scopes: i.scopes,
    categories: i.categories,
    blocks: i.blocks,
    contentSources: i.contentSources,
    configurations: i.configurations,
    externalLinks: i.externalLinks,
    owner: {
      object: 'organization',
      id: i.ownerId,
      urls: { location: ctx.urls.api(`/orgs/${i.ownerId}`), app: ctx.urls.page(`/o/${i.ownerId}`) },
    },
    urls: {
      location: ctx.urls.api(`/integrations/${i.name}`),
      app: ctx.urls.page(`/integrations/${i.name}`),
      ...(i.icon ? { icon: await imageUrl(ctx, i.name, i.icon, 'icon') } : {}),
    },
    permissions: integrationPermissions(ctx.actor, factsOf(i)),
    ...(i.contentSecurityPolicy !== null ? { contentSecurityPolicy: i.contentSecurityPolicy } : {}),
  };
}

/** The blocks of integrations, by integration (those without blocks left out): what an editor can insert. */
export const presentIntegrationBlocks = (
  items: IIntegration[],
): OperationOutput<typeof ops.listSpaceIntegrationsBlocks> =>
  items.filter((i) => i.blocks.length > 0).map((i) => ({ name: i.name, blocks: i.blocks }));
