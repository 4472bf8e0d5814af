export * from './operations/meta.ts';
export * from './operations/identity.ts';
export * from './operations/spaces.ts';
