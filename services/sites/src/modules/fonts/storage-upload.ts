import { z } from 'zod';
import { TokenSigner } from '@quire/kit';

/** How long a signed upload URL works: 15 minutes. */
export const UPLOAD_TTL_MS = 15 * 60_000;
/** Where the gateway takes the bytes of a signed upload URL (`PUT`). */
export const UPLOADS_PATH = '/v1/storage/uploads/';

/** What a signed upload URL lets its holder store: one file of the organization under `key`, at most `size` bytes. */
export interface UploadClaims extends Record<string, unknown> {
  /** The organization. */
  o: string;
  /** The storage key the file gets. */
  k: string;
  /** The file's name. */
  n: string;
  /** Its declared size in bytes. */
  s: number;
  /** Who asked for the URL. */
  u: string | null;
}

const signers = new Map<string, TokenSigner<UploadClaims>>();

/** The signer of upload URLs (a JWT of purpose `storage-upload`: it stands for nothing else). */
export function uploadSigner(secret: string): TokenSigner<UploadClaims> {
  let s = signers.get(secret);
  if (!s) signers.set(secret, (s = new TokenSigner<UploadClaims>(secret, 'storage-upload')));
  return s;
}

const ClaimsSchema = z.object({
  o: z.string().min(1),
  k: z.string().min(1).max(512),
  n: z.string().min(1),
  s: z.number().int().positive(),
  u: z.string().nullable(),
});

/** The claims of an upload URL's token when its signature holds and it has not expired; else why not. */
export async function verifyUpload(secret: string, token: string): Promise<UploadClaims | 'expired' | 'invalid'> {
  const verified = await uploadSigner(secret).verify(token);
  if (typeof verified === 'string') return verified;
  const parsed = ClaimsSchema.safeParse(verified);
  return parsed.success ? parsed.data : 'invalid';
}
