import { DomainError, type ServiceClients } from '@quire/kit';

/**
 * For tests of org-admin alone (no content service): content answers `countTeamSpaces` with 0 for every team, which
 * is the truth there (no space exists, so no team was given a role on one). Any other call to content fails.
 */
export function contentWithoutSpaces(peers: ServiceClients): void {
  peers.use('content', {
    kind: 'in-process',
    async send(path, _type, input) {
      if (path !== 'spacePermissions.countForTeams')
        throw new DomainError('unavailable', `no content service: ${path}`);
      const { teams } = input as { teams: string[] };
      return { counts: Object.fromEntries(teams.map((id) => [id, 0])) };
    },
    readBlob: async () => null,
    readDeferred: async () => ({ kind: 'unknown' }) as never,
    close: async () => {},
  });
}
