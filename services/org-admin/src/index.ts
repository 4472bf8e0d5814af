export { orgAdminService, orgAdminRouter } from './service.ts';
export { loadOrgAdminConfig, OrgAdminEnvShape, type OrgAdminConfig } from './env.ts';
