import { newId, type EntityManager } from '@quire/kit';
import { SignInAttempt } from '../modules/sign-in/sign-in.entity.ts';

export const WINDOW_MS = 15 * 60 * 1000;

/** Limits per 15 minutes: links asked from one address, links sent to one account, link checks per address. */
export const LIMITS = { address: 10, account: 5, verify: 10 } as const;

export interface SignInAttemptRecorderProps {
  /** Each key an attempt counts against (`address:…`, `account:…`, `verify:…`, `sso:…`) and its limit. */
  keys: { key: string; limit: number }[];
  now?: Date;
}

/**
 * Counts an attempt against each key; false (and nothing counted) when one key already reached its limit in
 * the last 15 minutes. Counted in PostgreSQL, so every instance of the service sees the same numbers; older
 * attempts are dropped on the way.
 */
export async function signInAttemptRecorder(
  em: EntityManager,
  { keys, now = new Date() }: SignInAttemptRecorderProps,
): Promise<boolean> {
  const since = new Date(now.getTime() - WINDOW_MS);
  for (const { key, limit } of keys) {
    if ((await em.count(SignInAttempt, { key, at: { $gt: since } })) >= limit) return false;
  }
  for (const { key } of keys) em.create(SignInAttempt, { id: newId(), key, at: now });
  await em.nativeDelete(SignInAttempt, { at: { $lt: since } });
  return true;
}
