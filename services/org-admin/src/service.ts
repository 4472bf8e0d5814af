import { ServiceOperations } from '@quire/contracts';
import type { ServiceDefinition } from '@quire/kit';
import type { OrgAdminConfig } from './env.ts';
import { migrations } from './migrations/index.ts';
import { adminProcedures } from './modules/admin/admin.router.ts';
import { AuditEventRow } from './modules/audit/audit-event.entity.ts';
import { auditLogConsumer } from './modules/audit/audit-events.consumer.ts';
import { auditRetentionJob } from './modules/audit/audit-retention.job.ts';
import { auditProcedures } from './modules/audit/audit.router.ts';
import { memberProcedures } from './modules/members/members.router.ts';
import { OidcProvider, SamlAssertion, SsoFlow, SsoIdentity, SsoLink } from './modules/oidc/oidc-provider.entity.ts';
import { OrganizationDomain } from './modules/domains/domain.entity.ts';
import { OutboxMail } from './modules/admin/outbox-mail.entity.ts';
import { emailDomainProcedures } from './modules/domains/email-domains.router.ts';
import { oidcProcedures } from './modules/oidc/oidc.router.ts';
import { resealOidcSecretsJob } from './modules/oidc/reseal-oidc-secrets.job.ts';
import { metaProcedures } from './modules/meta/meta.router.ts';
import { Membership, Organization } from './modules/organizations/organization.entity.ts';
import { organizationProcedures } from './modules/organizations/organizations.router.ts';
import { SamlProvider } from './modules/saml/saml-provider.entity.ts';
import { samlProcedures } from './modules/saml/saml.router.ts';
import { Session } from './modules/sessions/session.entity.ts';
import { Invite, SignInAttempt, SignInLink } from './modules/sign-in/sign-in.entity.ts';
import { signInProcedures } from './modules/sign-in/sign-in.router.ts';
import { sessionProcedures } from './modules/sessions/sessions.router.ts';
import { Team, TeamMember } from './modules/teams/team.entity.ts';
import { teamProcedures } from './modules/teams/teams.router.ts';
import { ApiToken } from './modules/tokens/api-token.entity.ts';
import { tokenProcedures } from './modules/tokens/tokens.router.ts';
import { TranslationSettings } from './modules/translations/translation-settings.entity.ts';
import { translationProcedures } from './modules/translations/translations.router.ts';
import { User } from './modules/users/user.entity.ts';
import { userProcedures } from './modules/users/users.router.ts';
import { serviceRouter } from './trpc.ts';

export const orgAdminRouter = serviceRouter('org-admin', ServiceOperations['org-admin'], {
  ...metaProcedures,
  ...userProcedures,
  ...organizationProcedures,
  ...tokenProcedures,
  ...adminProcedures,
  ...memberProcedures,
  ...teamProcedures,
  ...samlProcedures,
  ...translationProcedures,
  ...signInProcedures,
  ...sessionProcedures,
  ...oidcProcedures,
  ...emailDomainProcedures,
  ...auditProcedures,
});

/** Users, API tokens, organizations, members, teams, SAML providers and translation settings. */
export const orgAdminService: ServiceDefinition<OrgAdminConfig> = {
  name: 'org-admin',
  schema: 'org_admin',
  entities: [
    User,
    ApiToken,
    Organization,
    Membership,
    Team,
    TeamMember,
    SamlProvider,
    TranslationSettings,
    SignInLink,
    Invite,
    Session,
    SignInAttempt,
    OidcProvider,
    SsoFlow,
    SamlAssertion,
    SsoIdentity,
    SsoLink,
    OrganizationDomain,
    OutboxMail,
    AuditEventRow,
  ],
  migrations,
  router: orgAdminRouter,
  consumers: ({ orm }) => [auditLogConsumer(orm)],
  jobs: ({ orm, config, log }) => [
    auditRetentionJob(orm, config.QUIRE_AUDIT_RETENTION_DAYS, log),
    resealOidcSecretsJob({ orm, config, log }),
  ],
};
