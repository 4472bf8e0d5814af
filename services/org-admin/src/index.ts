export { orgAdminService, orgAdminRouter } from './service.ts';
export { loadOrgAdminConfig, OrgAdminEnvShape, type OrgAdminConfig } from './env.ts';
export { verifyVisitorClaims, type VisitorClaims } from './modules/members/visitor-claims.ts';
export { instanceHasOrganizations } from './instance-state.ts';
