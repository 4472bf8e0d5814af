import { IdentityMigration } from './0001-identity.ts';
import { MembersAndTeamsMigration } from './0002-members-and-teams.ts';
import { SamlAndTranslationsMigration } from './0003-saml-and-translations.ts';
import { SignInMigration } from './0004-sign-in.ts';
import { SsoSignInMigration } from './0005-sso-sign-in.ts';
import { AuditLogMigration } from './0006-audit-log.ts';
import { OrganizationMergeRulesMigration } from './0007-merge-rules.ts';
import { SsoLinksAndDomainsMigration } from './0008-sso-links-and-domains.ts';
import { OutboxMigration } from './0009-outbox.ts';
import { SessionDetailsMigration } from './0010-session-details.ts';

/** Committed migrations, applied in order at start. Never edit one that has shipped: add the next. */
export const migrations = [
  { name: '0001_identity', class: IdentityMigration },
  { name: '0002_members_and_teams', class: MembersAndTeamsMigration },
  { name: '0003_saml_and_translations', class: SamlAndTranslationsMigration },
  { name: '0004_sign_in', class: SignInMigration },
  { name: '0005_sso_sign_in', class: SsoSignInMigration },
  { name: '0006_audit_log', class: AuditLogMigration },
  { name: '0007_merge_rules', class: OrganizationMergeRulesMigration },
  { name: '0008_sso_links_and_domains', class: SsoLinksAndDomainsMigration },
  { name: '0009_outbox', class: OutboxMigration },
  { name: '0010_session_details', class: SessionDetailsMigration },
];
