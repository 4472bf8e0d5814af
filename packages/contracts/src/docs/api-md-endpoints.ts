// The 126 endpoints of docs/spec/api.md (section "Endpoints"), the project's contract, as [method, path] in the
// order of api.md, its "...", "base" and "/content" shorthands expanded. api-coverage.test.ts checks that the
// contracts serve every one of them.
const S = '/v1/spaces/{spaceId}';
const CR = `${S}/change-requests/{changeRequestId}`;
const O = '/v1/orgs/{organizationId}';
const SITE = `${O}/sites/{siteId}`;
const SPEC = `${O}/openapi/{specSlug}`;

/** The `/content` routes, alike on a space and on a change request. */
const contentOf = (base: string): [method: string, path: string][] => [
  ['GET', `${base}/content`],
  ['POST', `${base}/content/import`],
  ['GET', `${base}/content/pages`],
  ['GET', `${base}/content/files`],
  ['GET', `${base}/content/files/{fileId}`],
  ['GET', `${base}/content/files/{fileId}/backlinks`],
  ['GET', `${base}/content/page/{pageId}`],
  ['GET', `${base}/content/page/{pageId}/links`],
];

export const API_MD_ENDPOINTS: [method: string, path: string][] = [
  // Space comments (9)
  ['GET', `${S}/comments`],
  ['POST', `${S}/comments`],
  ['GET', `${S}/comments/{commentId}`],
  ['PUT', `${S}/comments/{commentId}`],
  ['DELETE', `${S}/comments/{commentId}`],
  ['POST', `${S}/comments/{commentId}/replies`],
  ['GET', `${S}/comments/{commentId}/replies/{commentReplyId}`],
  ['PUT', `${S}/comments/{commentId}/replies/{commentReplyId}`],
  ['DELETE', `${S}/comments/{commentId}/replies/{commentReplyId}`],
  // Change request comments (8)
  ['GET', `${CR}/comments`],
  ['POST', `${CR}/comments`],
  ['GET', `${CR}/comments/{commentId}`],
  ['PUT', `${CR}/comments/{commentId}`],
  ['DELETE', `${CR}/comments/{commentId}`],
  ['GET', `${CR}/comments/{commentId}/replies`],
  ['POST', `${CR}/comments/{commentId}/replies`],
  ['GET', `${CR}/comments/{commentId}/replies/{commentReplyId}`],
  // Change requests (10)
  ['GET', `${S}/change-requests`],
  ['POST', `${S}/change-requests`],
  ['GET', `${CR}`],
  ['PATCH', `${CR}`],
  ['POST', `${CR}/merge`],
  ['POST', `${CR}/update`],
  ['GET', `${CR}/pdf`],
  ['GET', `${CR}/requested-reviewers`],
  ['POST', `${CR}/requested-reviewers`],
  ['DELETE', `${CR}/requested-reviewers/{userId}`],
  // Content of a change request (8)
  ...contentOf(CR),
  // Space content and search (10)
  ['GET', `${S}/search`],
  ...contentOf(S),
  ['GET', `${S}/links`],
  // Spaces (7)
  ['GET', `${S}`],
  ['DELETE', `${S}`],
  ['PATCH', `${S}`],
  ['POST', `${S}/duplicate`],
  ['POST', `${S}/restore`],
  ['POST', `${S}/move`],
  ['POST', `${S}/transfer`],
  // Collections (8)
  ['GET', `${O}/collections`],
  ['POST', `${O}/collections`],
  ['GET', '/v1/collections/{collectionId}'],
  ['PATCH', '/v1/collections/{collectionId}'],
  ['DELETE', '/v1/collections/{collectionId}'],
  ['GET', '/v1/collections/{collectionId}/spaces'],
  ['POST', '/v1/collections/{collectionId}/move'],
  ['POST', '/v1/collections/{collectionId}/transfer'],
  // Sites (9)
  ['GET', `${O}/sites`],
  ['POST', `${O}/sites`],
  ['GET', `${SITE}`],
  ['DELETE', `${SITE}`],
  ['PATCH', `${SITE}`],
  ['GET', `${SITE}/adaptive-schema`],
  ['PUT', `${SITE}/adaptive-schema`],
  ['GET', `${SITE}/adaptive-schema/template-conditions`],
  ['GET', `${SITE}/published`],
  // Site sections (5)
  ['GET', `${SITE}/sections`],
  ['POST', `${SITE}/sections`],
  ['DELETE', `${SITE}/sections/{siteSectionId}`],
  ['PATCH', `${SITE}/sections/{siteSectionId}`],
  ['POST', `${SITE}/sections/{siteSectionId}/move`],
  // Site spaces (5)
  ['GET', `${SITE}/site-spaces`],
  ['POST', `${SITE}/site-spaces`],
  ['DELETE', `${SITE}/site-spaces/{siteSpaceId}`],
  ['PATCH', `${SITE}/site-spaces/{siteSpaceId}`],
  ['POST', `${SITE}/site-spaces/{siteSpaceId}/move`],
  // Site share links (4)
  ['GET', `${SITE}/share-links`],
  ['POST', `${SITE}/share-links`],
  ['DELETE', `${SITE}/share-links/{shareLinkId}`],
  ['PATCH', `${SITE}/share-links/{shareLinkId}`],
  // Organization members (8)
  ['GET', `${O}/members`],
  ['GET', `${O}/members/{userId}`],
  ['DELETE', `${O}/members/{userId}`],
  ['PATCH', `${O}/members/{userId}`],
  ['POST', `${O}/ping`],
  ['POST', `${O}/members/{userId}/sso`],
  ['GET', `${O}/members/{userId}/spaces`],
  ['GET', `${O}/members/{userId}/teams`],
  // Teams and team members (9)
  ['GET', `${O}/teams`],
  ['PUT', `${O}/teams`],
  ['GET', `${O}/teams/{teamId}`],
  ['PATCH', `${O}/teams/{teamId}`],
  ['DELETE', `${O}/teams/{teamId}`],
  ['GET', `${O}/teams/{teamId}/members`],
  ['PUT', `${O}/teams/{teamId}/members`],
  ['PUT', `${O}/teams/{teamId}/members/{userId}`],
  ['DELETE', `${O}/teams/{teamId}/members/{userId}`],
  // SAML and SSO (6)
  ['GET', `${O}/saml`],
  ['POST', `${O}/saml`],
  ['GET', `${O}/saml/{samlProviderId}`],
  ['PATCH', `${O}/saml/{samlProviderId}`],
  ['DELETE', `${O}/saml/{samlProviderId}`],
  ['GET', `${O}/sso`],
  // OpenAPI specs (10)
  ['GET', `${O}/openapi`],
  ['POST', `${O}/openapi`],
  ['GET', `${SPEC}`],
  ['PUT', `${SPEC}`],
  ['DELETE', `${SPEC}`],
  ['GET', `${SPEC}/versions`],
  ['GET', `${SPEC}/versions/latest`],
  ['GET', `${SPEC}/versions/latest/content`],
  ['GET', `${SPEC}/versions/{versionId}`],
  ['GET', `${SPEC}/versions/{versionId}/content`],
  // Translation settings (5)
  ['GET', `${O}/translations`],
  ['POST', `${O}/translations`],
  ['GET', `${O}/translations/{translationSettingsId}`],
  ['PUT', `${O}/translations/{translationSettingsId}`],
  ['DELETE', `${O}/translations/{translationSettingsId}`],
  // Integrations (5)
  ['GET', '/v1/integrations'],
  ['GET', '/v1/integrations/{integrationName}'],
  ['POST', '/v1/integrations/{integrationName}'],
  ['DELETE', '/v1/integrations/{integrationName}'],
  ['GET', '/v1/integrations/{integrationName}/installations'],
];
