import { z } from 'zod';

/** Organization roles, strongest first. `null` (where nullable) means guest. */
export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export const RoleSchema = z.enum(ROLES).describe('Member role: admin, create, review, edit, comment or read');
export type Role = z.infer<typeof RoleSchema>;
export const RoleOrGuestSchema = RoleSchema.nullable().describe('Member role, or null for a guest');
export const DefaultLevelSchema = z
  .union([RoleSchema, z.literal('inherit')])
  .nullable()
  .describe('Default access level: a role, `inherit` (from the parent collection or organization), or null for none');
export type DefaultLevel = z.infer<typeof DefaultLevelSchema>;

export const IdSchema = z.string().min(1).max(100);
export const TimestampSchema = z.iso.datetime().describe('ISO 8601 date-time');
export const UrlSchema = z.string().describe('URL');

/** Query booleans: only the strings `true` and `false` (and real booleans from JSON callers). */
export const queryBoolean = (description: string) =>
  z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean()).describe(description);

/** Query numbers arrive as strings over REST and as numbers from typed callers. */
export const queryNumber = <T extends z.ZodNumber>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v), schema);

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 50;
/** A page of a space's history (`listRevisionsInSpace`): each item is a whole revision (page tree and files). */
export const REVISIONS_PAGE_SIZE = { default: 20, max: 100 } as const;

/** `page` and `limit` of every paged list. */
export const PageQueryShape = {
  page: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .describe('Identifier of the page of results to fetch (the `next.page` of the previous page)'),
  limit: queryNumber(z.number().int().min(0).max(MAX_PAGE_SIZE))
    .optional()
    .describe(`The number of results per page (0..${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE})`),
};
export const OrderSchema = z.enum(['asc', 'desc']).default('desc').describe('Sort order, `desc` by default');

/** The List envelope: `next` is absent on the last page, `count` is the total number of matches. */
export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({
    next: z
      .object({ page: z.string().describe('Value to pass as `page` to fetch the following page') })
      .optional()
      .describe('Absent on the last page'),
    count: z.number().int().describe('Total count of matching objects'),
    items: z.array(item),
  });
export type List<T> = { next?: { page: string }; count: number; items: T[] };

export const EmptySchema = z.object({});
/** Output of the 204/205 operations: no body. */
export const NoContentSchema = z.void();
