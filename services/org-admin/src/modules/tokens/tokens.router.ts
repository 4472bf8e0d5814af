import { Events, ops, type Actor } from '@quire/contracts';
import { notFound, paginate, recordEvent, sha256Hex } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { issueToken } from '../../commands/token-issuer.ts';
import { Membership } from '../organizations/organization.entity.ts';
import { TeamMember } from '../teams/team.entity.ts';
import { ApiToken, type IApiToken } from './api-token.entity.ts';

const present = (t: IApiToken) => ({
  object: 'api-token' as const,
  id: t.id,
  label: t.label,
  createdAt: t.createdAt.toISOString(),
  ...(t.lastUsedAt ? { lastUsedAt: t.lastUsedAt.toISOString() } : {}),
});

const LAST_USED_PRECISION_MS = 60_000;
const adminHashes = new Map<string, string>();
const adminTokenHash = (token: string) => {
  let h = adminHashes.get(token);
  if (!h) adminHashes.set(token, (h = sha256Hex(token)));
  return h;
};

export const tokenProcedures = {
  createApiToken: implement(ops.createApiToken, async ({ input, ctx }) => {
    const { token, record } = issueToken(ctx.em, ctx.actor.userId, input.label);
    await ctx.em.flush();
    return { token, info: present(record) };
  }),

  listApiTokens: implement(ops.listApiTokens, async ({ input, ctx }) =>
    paginate(ctx.em, ApiToken, { userId: ctx.actor.userId, revokedAt: null }, { createdAt: 'desc', id: 'desc' }, input, present),
  ),

  revokeApiToken: implement(ops.revokeApiToken, async ({ input, ctx }) => {
    const token = await ctx.em.findOne(ApiToken, { id: input.tokenId, userId: ctx.actor.userId, revokedAt: null });
    if (!token) throw notFound('API token');
    token.revokedAt = new Date();
    recordEvent(ctx.em, Events.tokenRevoked, { user: token.userId, token: token.id });
    await ctx.em.flush();
  }),

  resolveToken: implement(ops.resolveToken, async ({ input, ctx }) => {
    const admin = ctx.config.QUIRE_ADMIN_TOKEN;
    if (admin && adminTokenHash(admin) === input.tokenHash) return { actor: { kind: 'instance-admin' } satisfies Actor };
    const token = await ctx.em.findOne(ApiToken, { hash: input.tokenHash, revokedAt: null });
    if (!token) return { actor: null };
    const memberships = await ctx.em.find(Membership, { userId: token.userId });
    const teams = new Map<string, string[]>();
    for (const row of await ctx.em.find(TeamMember, { userId: token.userId }, { fields: ['team', 'userId', 'organizationId'], orderBy: { team: 'asc' } })) {
      const list = teams.get(row.organizationId) ?? [];
      list.push(row.team.id);
      teams.set(row.organizationId, list);
    }
    const now = new Date();
    if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > LAST_USED_PRECISION_MS) {
      token.lastUsedAt = now;
      await ctx.em.flush();
    }
    const actor: Actor = {
      kind: 'user',
      userId: token.userId,
      memberships: memberships.map((m) => ({ organization: m.organizationId, role: m.role ?? null, teams: teams.get(m.organizationId) ?? [] })),
    };
    return { actor };
  }),
};
