import { IdentityMigration } from './0001-identity.ts';
import { MembersAndTeamsMigration } from './0002-members-and-teams.ts';
import { SamlAndTranslationsMigration } from './0003-saml-and-translations.ts';

/** Committed migrations, applied in order at start. Never edit one that has shipped: add the next. */
export const migrations = [
  { name: '0001_identity', class: IdentityMigration },
  { name: '0002_members_and_teams', class: MembersAndTeamsMigration },
  { name: '0003_saml_and_translations', class: SamlAndTranslationsMigration },
];
