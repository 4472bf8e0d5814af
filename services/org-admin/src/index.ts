export { orgAdminService, orgAdminRouter } from './service.ts';
export { loadOrgAdminConfig, OrgAdminEnvShape, type OrgAdminConfig } from './env.ts';
export { verifyVisitorClaims, visitorClaimsKey, type VisitorClaims } from './modules/members/visitor-claims.ts';
