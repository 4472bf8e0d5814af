/** Committed migrations of the integrations schema (the kit's outbox and dedupe tables come first). */
export const migrations = [];
