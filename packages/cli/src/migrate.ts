import { contentService } from '@quire/content';
import { integrationsService } from '@quire/integrations';
import { orgAdminService } from '@quire/org-admin';
import { sitesService } from '@quire/sites';
import { createOrm, migrate } from '@quire/kit';

export const ALL_SERVICES = [orgAdminService, contentService, sitesService, integrationsService];

/** Applies every service's pending migrations to its schema; returns what was applied, per service. */
export async function migrateAll(databaseUrl: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const def of ALL_SERVICES) {
    const orm = await createOrm({
      url: databaseUrl,
      schema: def.schema,
      entities: def.entities,
      migrations: def.migrations,
    });
    try {
      out[def.name] = await migrate(orm);
    } finally {
      await orm.close();
    }
  }
  return out;
}
