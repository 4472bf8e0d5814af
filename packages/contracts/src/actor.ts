import { z } from 'zod';
import { RoleOrGuestSchema } from './common.ts';

export const MembershipSchema = z.object({
  organization: z.string(),
  role: RoleOrGuestSchema,
  teams: z.array(z.string()),
});
export type Membership = z.infer<typeof MembershipSchema>;

/** Who is calling. The gateway resolves it from the bearer token and signs it into an internal header. */
export const ActorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('anonymous') }),
  z.object({
    kind: z.literal('user'),
    userId: z.string(),
    memberships: z.array(MembershipSchema),
    tokenId: z.string().optional().describe('The API token the call was made with'),
  }),
  z.object({ kind: z.literal('instance-admin') }),
  z.object({ kind: z.literal('service'), service: z.string() }),
]);
export type Actor = z.infer<typeof ActorSchema>;
export type UserActor = Extract<Actor, { kind: 'user' }>;
