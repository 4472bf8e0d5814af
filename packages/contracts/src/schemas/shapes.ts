import { z } from 'zod';
import { UrlSchema } from '../common.ts';

/** The `urls` of a resource the API and the application both show (`what`: `space`…), and any more of its URLs. */
export const apiAndAppUrls = <M extends z.ZodRawShape = Record<never, never>>(what: string, more: M = {} as M) =>
  z.object({
    location: UrlSchema.describe(`URL of the ${what} in the API`),
    app: UrlSchema.describe(`URL of the ${what} in the application`),
    ...more,
  });

/** One kind of a union discriminated by `kind`: its described `kind`, then its own fields. */
export const ofKind = <K extends string, F extends z.ZodRawShape>(kind: K, description: string, fields: F) =>
  z.object({ kind: z.literal(kind).describe(`Always \`${kind}\``), ...fields }).describe(description);

/**
 * The `permissions` of a resource as the caller sees it: one boolean a permission, each described by what it allows
 * (`{ view: 'Can the caller view the team' }`), under `description`.
 */
export const permissionsOf = <K extends string>(description: string, allows: Record<K, string>) =>
  z
    .object(
      Object.fromEntries(Object.entries<string>(allows).map(([k, d]) => [k, z.boolean().describe(d)])) as Record<
        K,
        z.ZodBoolean
      >,
    )
    .describe(description);

/**
 * What every resource of the API starts with: its `object` (`site-space`) and its `id`, described by `what` it is
 * (`site space`). Spread first in the resource's object: `{ ...objectAndId('site-space', 'site space'), path… }`.
 */
export const objectAndId = <O extends string>(object: O, what: string) => ({
  object: z.literal(object).describe(`Always \`${object}\``),
  id: z.string().describe(`Unique identifier of the ${what}`),
});
