import { DomainError, proofRecordName, resolveTxt } from '@quire/kit';
import type { UserContext } from '../../trpc.ts';
import { assertOrganizationAction } from '../organizations/organization.loader.ts';

/**
 * The TXT records at `_quire-verification.<domain>`, for an admin of the organization (403 otherwise), looked up
 * outside any transaction. A DNS failure (timeout, server failure) is a 502, never a silent "not verified".
 */
export async function loadEmailDomainRecords(
  ctx: Pick<UserContext, 'actor' | 'log'>,
  input: { organizationId: string; emailDomain: string },
): Promise<string[]> {
  assertOrganizationAction(ctx, input, 'update');
  try {
    return await resolveTxt(proofRecordName(input.emailDomain));
  } catch (err) {
    ctx.log.warn({ err: { message: (err as Error).message }, domain: input.emailDomain }, 'TXT lookup failed');
    throw new DomainError('unavailable', `The DNS lookup of ${input.emailDomain} failed: try again later`);
  }
}
