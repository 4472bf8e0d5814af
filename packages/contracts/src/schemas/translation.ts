// Schemas of this area; index.ts already re-exports this module.
export {};
