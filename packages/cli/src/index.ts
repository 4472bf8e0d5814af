export { runCli, USAGE } from './cli.ts';
export { startStandalone, type Standalone } from './standalone.ts';
export { migrateAll } from './migrate.ts';
export { QUIRE_BIN, shebangSettings, type NodeSettings } from './node-settings.ts';
