import type { List, Site, Space } from '@quire/contracts';
import { notFound, paginate, type PageRequest } from '@quire/kit';
import type { IntegrationsContext } from '../../trpc.ts';
import { assertConfigurationFits } from '../integrations/configuration-schema.ts';
import type { IIntegration } from '../integrations/integration.entity.ts';
import { fetchSites, requireSiteIn } from '../sites/sites-peer.ts';
import { fetchSpaces, requireSpaceIn } from '../spaces/content-spaces.ts';
import { ContentInstallation, type ContentKind, type IContentInstallation } from './content-installation.entity.ts';
import { contentInstallationRepository } from './content-installation.repository.ts';
import type { IInstallation } from './installation.entity.ts';
import { loadInstallationFor } from './installation.loader.ts';

type Ctx = Pick<IntegrationsContext, 'em' | 'actor' | 'peers' | 'requestId'>;
type InstallationRef = { integrationName: string; installationId: string };

/** The input field naming the target of a new space or site installation (GitBook's bodies: `space`, `siteId`). */
const FIELD: Record<ContentKind, string> = { space: 'space', site: 'siteId' };

/**
 * An installation and the space or site to install it on: the installation's admins (`update`, as GitBook: the
 * organization's admins), and a live target of the installation's organization they can view (asked of content or
 * sites as the caller: 400 naming the field otherwise).
 */
export async function loadTargetToInstallOn(
  ctx: Ctx,
  ref: InstallationRef,
  kind: ContentKind,
  targetId: string,
): Promise<{ installation: IInstallation; targetId: string }> {
  const { installation } = await loadInstallationFor(ctx, ref.integrationName, ref.installationId, 'update');
  const org = installation.organizationId;
  const target = await (kind === 'space'
    ? requireSpaceIn(ctx, org, targetId, FIELD.space)
    : requireSiteIn(ctx, org, targetId, FIELD.site));
  return { installation, targetId: target.id };
}

/** The installation of an integration on a space or a site, for the installation's admins: 404 when it is not installed there. */
export async function loadContentInstallationFor(
  ctx: Ctx,
  ref: InstallationRef,
  kind: ContentKind,
  targetId: string,
  action: 'view' | 'update' | 'delete',
): Promise<{ integration: IIntegration; installation: IInstallation; installed: IContentInstallation }> {
  const loaded = await loadInstallationFor(ctx, ref.integrationName, ref.installationId, action);
  const installed = await contentInstallationRepository.find(ctx.em, loaded.installation.id, kind, targetId);
  if (!installed) throw notFound(kind === 'space' ? 'Space installation' : 'Site installation');
  return { ...loaded, installed };
}

/** A space or site installation to update, its new `configuration` (when given) checked against the integration's form of that kind. */
export async function loadContentInstallationToUpdate(
  ctx: Ctx,
  ref: InstallationRef & { configuration?: Record<string, unknown> | undefined },
  kind: ContentKind,
  targetId: string,
): Promise<IContentInstallation> {
  const { integration, installed } = await loadContentInstallationFor(ctx, ref, kind, targetId, 'update');
  if (ref.configuration !== undefined) assertConfigurationFits(integration.configurations, ref.configuration, kind);
  return installed;
}

/** A page of the spaces (or sites) an installation is installed on, for its admins (oldest first), and the installation. */
export async function loadContentInstallations(
  ctx: Ctx,
  input: PageRequest & InstallationRef,
  kind: ContentKind,
): Promise<{ installation: IInstallation; page: List<IContentInstallation> }> {
  const { installation } = await loadInstallationFor(ctx, input.integrationName, input.installationId, 'view');
  const page = await paginate(
    ctx.em,
    ContentInstallation,
    { installationId: installation.id, targetKind: kind },
    { createdAt: 'asc', id: 'asc' },
    input,
    (i) => i,
  );
  return { installation, page };
}

/** The spaces of space installations as the caller sees them, when `extended` asks for them (else an empty map). */
export const loadSpacesOf = (
  ctx: Ctx,
  items: IContentInstallation[],
  extended: boolean | undefined,
): Promise<Map<string, Space>> =>
  extended
    ? fetchSpaces(
        ctx,
        items.map((i) => i.targetId),
      )
    : Promise.resolve(new Map());

/** The sites of site installations (in `organizationId`) as the caller sees them, when `extended` asks for them. */
export const loadSitesOf = (
  ctx: Ctx,
  organizationId: string,
  items: IContentInstallation[],
  extended: boolean | undefined,
): Promise<Map<string, Site>> =>
  extended
    ? fetchSites(
        ctx,
        organizationId,
        items.map((i) => i.targetId),
      )
    : Promise.resolve(new Map());
