export * from './operations/meta.ts';
export * from './operations/identity.ts';
export * from './operations/spaces.ts';
export * from './operations/collections.ts';
export * from './operations/members.ts';
export * from './operations/teams.ts';
export * from './operations/saml.ts';
export * from './operations/translations.ts';
