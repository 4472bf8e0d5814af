import { z } from 'zod';
import { RoleOrGuestSchema } from './common.ts';

export const MembershipSchema = z.object({
  organization: z.string(),
  role: RoleOrGuestSchema,
  teams: z.array(z.string()),
});
export type Membership = z.infer<typeof MembershipSchema>;

/** The most site spaces a reader's actor names (a site shows at most this many). */
export const READER_SITE_SPACES_MAX = 1000;

/**
 * A reader of a published site: the caller of a published-content token (the `apiToken` of
 * `POST /v1/urls/published`). It reads what the site shows that visitor and nothing else: the site, the site
 * spaces the site shows for the visitor's claims, their live content evaluated against those claims.
 */
export const ReaderSchema = z.object({
  site: z.string().describe('The published site'),
  organization: z.string().describe("The site's organization"),
  siteSpaces: z
    .array(z.object({ id: z.string(), space: z.string() }))
    .max(READER_SITE_SPACES_MAX)
    .describe('The site spaces the site shows this visitor (their spaces are what it may read)'),
  claims: z.record(z.string(), z.unknown()).describe("The visitor's claims (signed ones; unsigned under `unsigned`)"),
  shareKey: z.string().optional().describe('The share key a share-link site was opened with'),
});
export type Reader = z.infer<typeof ReaderSchema>;

/** Who is calling. The gateway resolves it from the bearer token and signs it into an internal header. */
export const ActorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('anonymous') }),
  z.object({
    kind: z.literal('user'),
    userId: z.string(),
    memberships: z.array(MembershipSchema),
    tokenId: z.string().optional().describe('The API token the call was made with'),
    sessionId: z.string().optional().describe('The sign-in session the call was made with (the app in a browser)'),
  }),
  z.object({ kind: z.literal('instance-admin') }),
  z.object({ kind: z.literal('service'), service: z.string() }),
  z.object({ kind: z.literal('reader'), reader: ReaderSchema }),
]);
export type Actor = z.infer<typeof ActorSchema>;
export type UserActor = Extract<Actor, { kind: 'user' }>;
export type ReaderActor = Extract<Actor, { kind: 'reader' }>;

/** The reader a call runs as, if it is one. */
export const readerOf = (actor: Actor): Reader | undefined => (actor.kind === 'reader' ? actor.reader : undefined);
