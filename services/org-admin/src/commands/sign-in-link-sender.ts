import { sha256Hex, type EntityManager, type Logger } from '@quire/kit';
import type { OrgAdminConfig } from '../env.ts';
import { randomToken } from '../modules/sessions/sessions.ts';
import { SignInLink } from '../modules/sign-in/sign-in.entity.ts';
import { mailSender } from './mail-sender.ts';

/** How long a sign-in link works (once). */
export const LINK_TTL_MS = 15 * 60 * 1000;

export interface SignInLinkSenderProps {
  /** The address of an existing account. */
  email: string;
  /** Where the link leads once signed in (a path of this site). */
  next: string;
  now?: Date;
}

/** Mails a one-time sign-in link (valid 15 minutes) to an account's address; only the SHA-256 of its token is stored. */
export async function signInLinkSender(
  em: EntityManager,
  env: { config: OrgAdminConfig; log: Logger },
  { email, next, now = new Date() }: SignInLinkSenderProps,
): Promise<void> {
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + LINK_TTL_MS);
  em.create(SignInLink, { hash: sha256Hex(token), email, next, createdAt: now, expiresAt, usedAt: null });
  const link = `${env.config.QUIRE_PUBLIC_URL.replace(/\/$/, '')}/login/verify?token=${token}`;
  await mailSender(em, env, {
    kind: 'sign-in',
    expiresAt,
    to: email,
    subject: 'Your Quire sign-in link',
    text: `Open this link to sign in to Quire (valid 15 minutes, once):\n\n${link}\n`,
    link,
  });
}

/**
 * Claims a sign-in link once, by a conditional update: of two requests racing with the same link, only one signs
 * in. False when it is used, expired or unknown.
 */
export async function signInLinkClaimer(
  em: EntityManager,
  { hash, now = new Date() }: { hash: string; now?: Date },
): Promise<boolean> {
  return (await em.nativeUpdate(SignInLink, { hash, usedAt: null, expiresAt: { $gt: now } }, { usedAt: now })) === 1;
}
