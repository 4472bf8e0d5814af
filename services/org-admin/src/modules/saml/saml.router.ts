import { X509Certificate } from 'node:crypto';
import { ops, type SamlProvider as SamlProviderDto, type Team as TeamDto } from '@quire/contracts';
import { invalid, newId, notFound, paginate, type EntityManager } from '@quire/kit';
import { implement, type UserContext } from '../../trpc.ts';
import { Organization } from '../organizations/organization.entity.ts';
import { Team } from '../teams/team.entity.ts';
import { presentTeam } from '../teams/team.presenter.ts';
import { loadTeamFacts } from '../teams/team.repository.ts';
import { SamlProvider, type ISamlProvider } from './saml-provider.entity.ts';
import { assertCanManageSaml } from './saml.policy.ts';
import { presentSamlProvider, samlServiceUrls, samlStatus } from './saml.presenter.ts';

/** A PEM-encoded X.509 certificate, or a 400 naming `certificate`. */
function assertCertificate(pem: string): string {
  const text = pem.trim();
  try {
    if (!/^-----BEGIN CERTIFICATE-----\r?\n/.test(text)) throw new Error('not PEM');
    new X509Certificate(text);
  } catch {
    throw invalid('Invalid request: certificate: not a PEM-encoded X.509 certificate');
  }
  return text;
}

async function assertTeamOf(em: EntityManager, organizationId: string, teamId: string): Promise<void> {
  if (!(await em.findOne(Team, { id: teamId, organizationId }))) throw invalid('Invalid request: defaultTeam: no such team in the organization');
}

async function findProviderOrThrow(em: EntityManager, organizationId: string, id: string): Promise<ISamlProvider> {
  const p = await em.findOne(SamlProvider, { id, organizationId });
  if (!p) throw notFound('SAML provider');
  return p;
}

/** Presents providers with their default team (as the caller sees it): a batch for the page. */
async function present(ctx: UserContext, providers: ISamlProvider[]): Promise<SamlProviderDto[]> {
  const ids = [...new Set(providers.flatMap((p) => (p.defaultTeamId ? [p.defaultTeamId] : [])))];
  const teams = new Map<string, TeamDto>();
  if (ids.length > 0) {
    const facts = await loadTeamFacts(ctx.em, ids, ctx.actor.userId);
    for (const t of await ctx.em.find(Team, { id: { $in: ids } })) teams.set(t.id, presentTeam(t, facts, ctx.actor));
  }
  return providers.map((p) => presentSamlProvider(p, p.defaultTeamId ? teams.get(p.defaultTeamId) : undefined, ctx.config.QUIRE_PUBLIC_URL));
}

interface SettingsInput {
  label?: string | undefined;
  entityID?: string | undefined;
  certificate?: string | undefined;
  ssoURL?: string | undefined;
  defaultTeam?: string | null | undefined;
  defaultRole?: ISamlProvider['defaultRole'] | undefined;
}

async function applySettings(em: EntityManager, p: ISamlProvider, input: SettingsInput): Promise<void> {
  if (input.label !== undefined) p.label = input.label;
  if (input.entityID !== undefined) p.entityId = input.entityID;
  if (input.certificate !== undefined) p.certificate = assertCertificate(input.certificate);
  if (input.ssoURL !== undefined) p.ssoUrl = input.ssoURL;
  if (input.defaultTeam !== undefined) {
    if (input.defaultTeam !== null) await assertTeamOf(em, p.organizationId, input.defaultTeam);
    p.defaultTeamId = input.defaultTeam;
  }
  if (input.defaultRole !== undefined) p.defaultRole = input.defaultRole;
}

export const samlProcedures = {
  listSAMLProvidersInOrganizationById: implement(ops.listSAMLProvidersInOrganizationById, async ({ input, ctx }) => {
    assertCanManageSaml(ctx.actor, input.organizationId);
    const page = await paginate(ctx.em, SamlProvider, { organizationId: input.organizationId }, { createdAt: 'asc', id: 'asc' }, input, (p) => p);
    return { ...page, items: await present(ctx, page.items) };
  }),

  createOrganizationSAMLProvider: implement(ops.createOrganizationSAMLProvider, async ({ input, ctx }) => {
    assertCanManageSaml(ctx.actor, input.organizationId);
    const provider = ctx.em.create(SamlProvider, {
      id: newId(),
      organizationId: input.organizationId,
      label: input.label,
      entityId: null,
      certificate: null,
      ssoUrl: null,
      defaultTeamId: null,
      defaultRole: null,
      createdAt: new Date(),
    });
    await applySettings(ctx.em, provider, input);
    await ctx.em.flush();
    return (await present(ctx, [provider]))[0]!;
  }),

  getOrganizationSAMLProviderById: implement(ops.getOrganizationSAMLProviderById, async ({ input, ctx }) => {
    assertCanManageSaml(ctx.actor, input.organizationId);
    const provider = await findProviderOrThrow(ctx.em, input.organizationId, input.samlProviderId);
    return (await present(ctx, [provider]))[0]!;
  }),

  updateOrganizationSAMLProvider: implement(ops.updateOrganizationSAMLProvider, async ({ input, ctx }) => {
    assertCanManageSaml(ctx.actor, input.organizationId);
    const provider = await findProviderOrThrow(ctx.em, input.organizationId, input.samlProviderId);
    await applySettings(ctx.em, provider, input);
    await ctx.em.flush();
    return (await present(ctx, [provider]))[0]!;
  }),

  deleteOrganizationSAMLProvider: implement(ops.deleteOrganizationSAMLProvider, async ({ input, ctx }) => {
    assertCanManageSaml(ctx.actor, input.organizationId);
    ctx.em.remove(await findProviderOrThrow(ctx.em, input.organizationId, input.samlProviderId));
    await ctx.em.flush();
  }),

  /** Public (GitBook's document gives it no security): the login page of an organization lists its usable providers. */
  listSSOProviderLoginsInOrganization: implement(ops.listSSOProviderLoginsInOrganization, async ({ input, ctx }) => {
    if (!(await ctx.em.findOne(Organization, { id: input.organizationId }, { fields: ['id'] }))) throw notFound('Organization');
    const providers = await ctx.em.find(SamlProvider, { organizationId: input.organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    const url = ctx.config.QUIRE_PUBLIC_URL;
    return { items: providers.filter((p) => samlStatus(p) === 'active').map((p) => ({ id: p.id, label: p.label, startURL: samlServiceUrls(url, p.id).startURL })) };
  }),
};
