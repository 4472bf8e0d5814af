export { buildGateway, API_VERSION, type Gateway, type GatewayDeps } from './app.ts';
export { loadGatewayConfig, GatewayEnvShape, type GatewayConfig } from './env.ts';
