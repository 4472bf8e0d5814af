import type { Role } from '@quire/contracts';
import { DomainError } from '../errors.ts';
import type { Transport } from '../rpc/client.ts';

/**
 * For tests of a service without org-admin: a transport answering the directory calls other services make to it
 * (`users.getMany`, `members.getMany`, `teams.getMany`) from the test's tables. `members` and `teams` are those of
 * the organizations `inOrganization` accepts (none of another); every user is known, named after its id. `more`
 * answers any other call (`undefined`: a `not_found` failure naming the call).
 */
export function orgAdminDirectoryStub(opts: {
  inOrganization: (organizationId: string | undefined) => boolean;
  members: ReadonlyMap<string, Role | null>;
  teams: ReadonlySet<string>;
  more?: (path: string, input: unknown) => unknown;
}): Transport {
  const user = (id: string) => ({
    object: 'user' as const,
    id,
    displayName: id,
    urls: { location: `http://quire.test/v1/users/${id}` },
  });
  const member = (id: string) => ({
    object: 'member',
    id,
    role: opts.members.get(id),
    user: user(id),
    disabled: false,
    joinedAt: new Date().toISOString(),
    sso: false,
    spaces: 0,
    teams: 0,
    sites: 0,
  });
  const team = (id: string) => ({
    object: 'team',
    id,
    title: id,
    members: 1,
    spaces: 0,
    createdAt: new Date().toISOString(),
    permissions: { admin: false, view: true },
  });
  return {
    kind: 'in-process',
    async send(path, _type, input) {
      const i = input as { organizationId?: string; ids: string[] };
      const known = (table: { has(id: string): boolean }) =>
        opts.inOrganization(i.organizationId) ? i.ids.filter((id) => table.has(id)) : [];
      if (path === 'users.getMany') return { items: i.ids.map(user) };
      if (path === 'members.getMany') return { items: known(opts.members).map(member) };
      if (path === 'teams.getMany') return { items: known(opts.teams).map(team) };
      const answer = opts.more?.(path, input);
      if (answer === undefined) throw new DomainError('not_found', `stub: no ${path}`);
      return answer;
    },
    readBlob: async () => null,
    readDeferred: async () => ({ kind: 'unknown' }) as never,
    close: async () => {},
  };
}
