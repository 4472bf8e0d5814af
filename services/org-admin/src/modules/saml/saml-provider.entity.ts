import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn } from '@quire/kit';
import type { Role } from '@quire/contracts';

export const SamlProvider = defineEntity({
  name: 'SamlProvider',
  tableName: 'saml_provider',
  properties: {
    ...idColumn(),
    organizationId: p.string(),
    label: p.string(),
    entityId: p.string().nullable(),
    certificate: p.string().nullable(),
    ssoUrl: p.string().nullable(),
    defaultTeamId: p.string().nullable(),
    defaultRole: p.string().$type<Role | null>().nullable(),
    createdAt: p.datetime(),
  },
});
export type ISamlProvider = InferEntity<typeof SamlProvider>;
