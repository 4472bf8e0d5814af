import { newId, type EntityManager } from '@quire/kit';
import { normalizeCertificate } from '../modules/saml/certificate.ts';
import { SamlProvider, type ISamlProvider } from '../modules/saml/saml-provider.entity.ts';
import { ssoDefaultsSetter, type SsoDefaults } from './sso-member-provisioner.ts';

export interface SamlSettings extends SsoDefaults {
  label?: string | undefined;
  entityID?: string | undefined;
  certificate?: string | undefined;
  ssoURL?: string | undefined;
}

async function applySettings(em: EntityManager, p: ISamlProvider, input: SamlSettings): Promise<ISamlProvider> {
  if (input.label !== undefined) p.label = input.label;
  if (input.entityID !== undefined) p.entityId = input.entityID;
  if (input.certificate !== undefined) p.certificate = normalizeCertificate(input.certificate);
  if (input.ssoURL !== undefined) p.ssoUrl = input.ssoURL;
  await ssoDefaultsSetter(em, p, input);
  em.persist(p);
  return p;
}

/** A new SAML provider, `pending` until its SSO URL, entity ID and certificate are set. */
export function samlProviderCreator(
  em: EntityManager,
  props: SamlSettings & { organizationId: string; label: string },
): Promise<ISamlProvider> {
  const provider = em.create(SamlProvider, {
    id: newId(),
    organizationId: props.organizationId,
    label: props.label,
    entityId: null,
    certificate: null,
    ssoUrl: null,
    defaultTeamId: null,
    defaultRole: null,
    createdAt: new Date(),
  });
  return applySettings(em, provider, props);
}

export function samlProviderUpdater(
  em: EntityManager,
  props: SamlSettings & { provider: ISamlProvider },
): Promise<ISamlProvider> {
  return applySettings(em, props.provider, props);
}

export function samlProviderDeleter(em: EntityManager, { provider }: { provider: ISamlProvider }): void {
  em.remove(provider);
}
