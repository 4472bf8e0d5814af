/** A rendered integration UI (never reached: Quire's integrations run no code yet, see the loader). */
export const presentIntegrationUI = <T extends Record<string, unknown>>(output: T): T => output;
