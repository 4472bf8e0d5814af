import type { Role } from '@quire/contracts';
import { newId, sha256Hex, type EntityManager, type Logger } from '@quire/kit';
import type { OrgAdminConfig } from '../env.ts';
import { mailSender } from './mail-sender.ts';
import { Invite } from '../modules/sign-in/sign-in.entity.ts';
import { randomToken } from '../modules/sessions/sessions.ts';

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface InviteSenderProps {
  organization: { id: string; title: string };
  /** The people just invited, with the role each was invited with; `joins`: not a member until they accept. */
  invited: { userId: string; email: string; role: Role | null; joins: boolean }[];
}

/**
 * Sends each invited person a link (valid 7 days, once) to accept: accepting signs them in (and makes an existing
 * account a member: until then it is not one). Earlier pending
 * invites of the same person to the same organization are revoked: only the newest link works.
 */
export async function inviteSender(
  em: EntityManager,
  env: { config: OrgAdminConfig; log: Logger },
  props: InviteSenderProps,
): Promise<void> {
  const base = env.config.QUIRE_PUBLIC_URL.replace(/\/$/, '');
  for (const { userId, email, role, joins } of props.invited) {
    const now = new Date();
    await em.nativeUpdate(
      Invite,
      { organizationId: props.organization.id, userId, usedAt: null, revokedAt: null },
      { revokedAt: now },
    );
    const token = randomToken();
    const expiresAt = new Date(now.getTime() + INVITE_TTL_MS);
    em.create(Invite, {
      id: newId(),
      hash: sha256Hex(token),
      organizationId: props.organization.id,
      userId,
      role,
      createdAt: now,
      expiresAt,
      usedAt: null,
      revokedAt: null,
      joins,
    });
    const link = `${base}/invites/accept?token=${token}`;
    await mailSender(em, env, {
      kind: 'invite',
      expiresAt,
      to: email,
      subject: `You are invited to ${props.organization.title} on Quire`,
      text:
        `You are invited to join ${props.organization.title} on Quire.\n\n` +
        `${joins ? 'You join it only if you accept' : 'Accept'} (valid 7 days):\n\n${link}\n`,
      link,
    });
  }
}
