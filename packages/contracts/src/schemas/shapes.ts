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
