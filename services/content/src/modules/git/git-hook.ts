import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The signature headers a Git server sends with a webhook (one of them). */
export interface HookSignatures {
  /** Gitea / Forgejo `X-Gitea-Signature`: hex HMAC-SHA256 of the body. */
  giteaSignature?: string | undefined;
  /** GitHub `X-Hub-Signature-256`: `sha256=<hex HMAC-SHA256 of the body>` (Gitea sends it too). */
  hubSignature?: string | undefined;
  /** GitLab `X-Gitlab-Token`: the secret itself (GitLab does not sign the body). */
  gitlabToken?: string | undefined;
}

/** The largest webhook body accepted (the gateway refuses more with 413). */
export const MAX_HOOK_BODY_BYTES = 256 * 1024;

const same = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);
const hexOf = (s: string) => (/^[0-9a-f]{64}$/i.test(s) ? Buffer.from(s, 'hex') : null);

/**
 * Whether a webhook is signed with `secret`: an HMAC-SHA256 of the body's bytes (GitHub's `sha256=` header or
 * Gitea's) or GitLab's token. Compared in constant time; a header of the wrong shape is a bad signature.
 */
export function verifyHookSignature(secret: string, body: Uint8Array, headers: HookSignatures): boolean {
  const mac = createHmac('sha256', secret).update(body).digest();
  const hub = headers.hubSignature?.trim();
  if (hub !== undefined) {
    const given = hub.toLowerCase().startsWith('sha256=') ? hexOf(hub.slice(7)) : null;
    return given !== null && same(given, mac);
  }
  const gitea = headers.giteaSignature?.trim();
  if (gitea !== undefined) {
    const given = hexOf(gitea);
    return given !== null && same(given, mac);
  }
  if (headers.gitlabToken !== undefined) {
    // Hashed first, so the comparison takes the same time whatever the lengths.
    const digest = (s: string) => createHash('sha256').update(s).digest();
    return same(digest(headers.gitlabToken), digest(secret));
  }
  return false;
}
