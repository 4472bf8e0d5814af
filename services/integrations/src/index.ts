export { integrationsService, integrationsRouter } from './service.ts';
export { loadIntegrationsConfig, IntegrationsEnvShape, type IntegrationsConfig } from './env.ts';
