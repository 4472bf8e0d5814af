import type { Actor } from '@quire/contracts';
import { definePolicy, organizationLevel } from '@quire/kit';

/**
 * An organization's custom fonts and the files uploaded for them: every member reads them (a site's customization
 * chooses among them), organization admins upload files and create, change and delete fonts. Outsiders: 404.
 */
export const customFontPolicy = definePolicy({
  resource: 'Custom font',
  role: (actor: Actor, facts: { organizationId: string }) => organizationLevel(actor, facts.organizationId),
  actions: { view: 'read', edit: 'admin' },
  describe: { view: 'Reading the custom fonts', edit: 'Uploading fonts and changing the custom fonts' },
  permissions: { edit: 'admin' },
});
export type CustomFontAction = keyof typeof customFontPolicy.actions;
