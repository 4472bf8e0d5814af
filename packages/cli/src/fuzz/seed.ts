import type { Platform } from '../e2e/harness.ts';
import type { RawClient } from './http.ts';
import type { FuzzTargets } from './requests.ts';

interface Boot {
  organization: { id: string };
  user: { id: string };
  token: string;
}

/**
 * Seeds the platform through the CLI and the official routes: an organization with its owner, a second
 * member, collections, spaces, a team, translation settings, a SAML provider and a spare API token; and a
 * second organization (its token is the "other organization" one). Ids are keyed by the path parameter
 * names of the document. The owner's own user id and token are left out: the fuzzer would remove or revoke them.
 */
export async function seedPlatform(p: Platform, http: RawClient): Promise<FuzzTargets> {
  const owner = await cli<Boot>(p, ['bootstrap', '--org', 'Fuzz Co', '--email', 'owner@fuzz.io', '--name', 'Owner']);
  const other = await cli<Boot>(p, ['bootstrap', '--org', 'Other Fuzz Co', '--email', 'other@fuzz.io']);
  const org = owner.organization.id;
  const member = await cli<{ user: { id: string } }>(p, [
    'users',
    'add',
    '--org',
    org,
    '--email',
    'member@fuzz.io',
    '--role',
    'edit',
    '--name',
    'Member',
  ]);
  type Created = { id: string };
  const create = (method: string, path: string, body: unknown) =>
    http.json<Created>(method, `/v1/orgs/${org}${path}`, owner.token, body).then((x) => x.id);

  const collections = [await create('POST', '/collections', { title: 'Fuzzed collection' })];
  collections.push(await create('POST', '/collections', { title: 'Nested collection', parent: collections[0] }));
  const spaces = [
    await create('POST', '/spaces', { title: 'Fuzzed space', parent: collections[0] }),
    await create('POST', '/spaces', { title: 'Top space' }),
  ];
  const team = await create('PUT', '/teams', { title: 'Fuzzers', members: [member.user.id] });
  const translation = await create('POST', '/translations', { title: 'French', languages: ['fr'] });
  const saml = await create('POST', '/saml', { label: 'Fuzz IdP' });
  const spare = await http.json<{ info: Created }>('POST', '/v1/user/tokens', owner.token, { label: 'spare' });

  const ids: Record<string, string[]> = {
    organizationId: [org],
    userId: [member.user.id],
    collectionId: collections,
    spaceId: spaces,
    teamId: [team],
    translationSettingsId: [translation],
    samlProviderId: [saml],
    tokenId: [spare.info.id],
  };
  return {
    ids,
    allIds: [...Object.values(ids).flat(), other.organization.id, other.user.id],
    tokens: { owner: owner.token, 'other-org': other.token, admin: p.platform.adminToken },
    bodyLimit: Number(p.env.QUIRE_BODY_LIMIT ?? 1024 * 1024),
  };
}

async function cli<T>(p: Platform, args: string[]): Promise<T> {
  const out = await p.cli(args);
  if (out.code !== 0) throw new Error(`seeding: quire ${args.join(' ')} failed: ${out.stderr}`);
  return out.json as T;
}
