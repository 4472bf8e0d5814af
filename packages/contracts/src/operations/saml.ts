// Operations of this area are declared here (see operation.ts); registry.ts and ops.ts already include this module.
export {};
