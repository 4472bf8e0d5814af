import type { AnyOperation, ServiceName } from './operation.ts';
import * as meta from './operations/meta.ts';
import * as identity from './operations/identity.ts';
import * as spaces from './operations/spaces.ts';
import * as spacesInternal from './operations/spaces-internal.ts';
import * as collections from './operations/collections.ts';
import * as members from './operations/members.ts';
import * as teams from './operations/teams.ts';
import * as saml from './operations/saml.ts';
import * as translations from './operations/translations.ts';
import * as sites from './operations/sites.ts';
import * as sitesStructure from './operations/sites-structure.ts';
import * as sitesSectionGroups from './operations/sites-section-groups.ts';
import * as sitesCustomization from './operations/sites-customization.ts';
import * as sitesShareLinks from './operations/sites-share-links.ts';
import * as customFonts from './operations/fonts.ts';
import * as sitesInternal from './operations/sites-internal.ts';
import * as sitesRedirects from './operations/sites-redirects.ts';
import * as sitesPublishingAuth from './operations/sites-publishing-auth.ts';
import * as sitesPublishedContent from './operations/sites-published-content.ts';
import * as sitesRender from './operations/sites-render.ts';
import * as sitesMcp from './operations/sites-mcp.ts';
import * as sitesInsights from './operations/sites-insights.ts';
import * as signIn from './operations/sign-in.ts';
import * as userSessions from './operations/user-sessions.ts';
import * as oidc from './operations/oidc.ts';
import * as emailDomains from './operations/email-domains.ts';
import * as changeRequests from './operations/change-requests.ts';
import * as integrations from './operations/integrations.ts';
import * as openapi from './operations/openapi.ts';
import * as content from './operations/content.ts';
import * as revisions from './operations/revisions.ts';
import * as links from './operations/links.ts';
import * as changeRequestReviews from './operations/change-request-reviews.ts';
import * as comments from './operations/comments.ts';
import * as contentImport from './operations/import.ts';
import * as pdf from './operations/pdf.ts';
import * as git from './operations/git.ts';
import * as search from './operations/search.ts';
import * as contentPublished from './operations/content-published.ts';
import * as contentRenderer from './operations/content-renderer.ts';
import * as contentReusable from './operations/content-reusable.ts';
import * as sitesAI from './operations/sites-ai.ts';
import * as integrationsRender from './operations/integrations-render.ts';
import * as permissions from './operations/permissions.ts';
import * as sitePermissions from './operations/permissions-sites.ts';
import * as audit from './operations/audit.ts';
const { getTeamsByIds: _teamsGetMany, ...contentPermissions } = permissions;

/** Every operation of the platform, by owning service. */
export const ServiceOperations = {
  'org-admin': {
    ...meta,
    ...identity,
    ...members,
    ...teams,
    ...saml,
    ...translations,
    ...signIn,
    ...userSessions,
    getTeamsByIds: permissions.getTeamsByIds,
    ...oidc,
    ...emailDomains,
    ...audit,
  },
  content: {
    ...spaces,
    ...spacesInternal,
    ...collections,
    ...changeRequests,
    ...changeRequestReviews,
    ...comments,
    ...content,
    ...revisions,
    ...contentImport,
    ...links,
    ...pdf,
    ...git,
    ...search,
    ...openapi,
    ...contentPublished,
    ...contentRenderer,
    ...contentReusable,
    ...contentPermissions,
  },
  sites: {
    ...sites,
    ...sitesStructure,
    ...sitesSectionGroups,
    ...sitesCustomization,
    ...sitesShareLinks,
    ...customFonts,
    ...sitesInternal,
    ...sitesRedirects,
    ...sitesInsights,
    ...sitesAI,
    ...sitesPublishingAuth,
    ...sitesPublishedContent,
    ...sitesRender,
    ...sitesMcp,
    ...sitePermissions,
  },
  integrations: { ...integrations, ...integrationsRender },
} as const satisfies Record<ServiceName, Record<string, AnyOperation>>;

export type OperationsOf<S extends ServiceName> = (typeof ServiceOperations)[S][keyof (typeof ServiceOperations)[S]];

export const ALL_OPERATIONS: AnyOperation[] = Object.values(ServiceOperations).flatMap(
  (ops) => Object.values(ops) as AnyOperation[],
);

/** The operations the gateway serves over HTTP. */
export const HTTP_OPERATIONS = ALL_OPERATIONS.filter((op) => op.http && op.access !== 'internal');

{
  const seen = new Set<string>();
  for (const op of ALL_OPERATIONS) {
    const key = `${op.service}:${op.id}`;
    if (seen.has(key)) throw new Error(`operation ${key} declared twice`);
    seen.add(key);
  }
}
