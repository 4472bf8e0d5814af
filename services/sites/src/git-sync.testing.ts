import { join } from 'node:path';
import { ops, type Actor } from '@quire/contracts';
import { buildSpace, eventually, userActor } from '@quire/kit/testing';
import { commitAll, runGit, useGitServer } from '../../content/src/modules/git/git-http-server.testing.ts';
import { useSitesAndContent } from './test-support.ts';

/** Test only: what a Git Sync test of the sites service starts from (not part of the service). */

const auth = { user: 'git-user', password: 'hunter2-secret' };
const gateway: Actor = { kind: 'service', service: 'gateway' };

/**
 * Content (which runs the imports, so it may reach the loopback Git server) and sites on one bus, for one test file
 * (`name` its database), with Debian's git http-backend on loopback; `admin` is an admin of organization `org`.
 */
export function useGitSyncSites(name: string, org: string) {
  const admin = userActor('admin', [{ organization: org, role: 'admin' }]);
  const p = useSitesAndContent(name, { inProcessBus: true, contentEnv: { QUIRE_ALLOW_PRIVATE_FETCH: '1' } });
  const server = useGitServer(auth);
  /** A new repository `repo` on the server: its working directory, initialised on `main`. */
  const newRepo = async (repo: string): Promise<string> => {
    await server.createRepo(repo);
    const dir = join(server.work, repo);
    await runGit(['init', '--initial-branch=main', dir]);
    return dir;
  };
  /** What `dir` holds, committed (`message`) and pushed to the server's `repo`: the URL to import it from. */
  const push = async (dir: string, repo: string, message: string): Promise<string> => {
    await commitAll(dir, message);
    const url = server.urlOf(repo, auth);
    await runGit(['push', url, 'main'], { cwd: dir });
    return url;
  };
  /** Imports the branch into the space and waits for the operation to end (the content service's job runs it). */
  const importInto = async (spaceId: string, url: string, force = false) => {
    await p.content.call(ops.importGitRepository, { spaceId, url, ref: 'refs/heads/main', force }, admin);
    return eventually(
      async () => {
        const info = await p.content.call(ops.getSpaceGitInfo, { spaceId }, admin);
        return info.operation && info.operation.state !== 'running' ? info : undefined;
      },
      30_000,
      'the import',
    );
  };
  /** The page at `path` of the published site `basename`, as the gateway asks for it. */
  const visit = (basename: string | undefined, path: string) =>
    p.sites.call(
      ops.getPublishedSitePage,
      { host: 'quire.test', path: `/sites/${basename}${path}`, query: {}, cookies: {} },
      gateway,
    );
  /**
   * What `dir` holds, pushed to `repo`, imported into a new space of the organization and published as a site: the
   * import's Git info and the site.
   */
  const publishedFrom = async (dir: string, repo: string) => {
    const url = await push(dir, repo, repo);
    const space = await buildSpace(p.content, { org, title: 'Handbook', as: admin });
    const info = await importInto(space.id, url);
    const site = await p.sites.call(ops.createSite, { organizationId: org, title: 'Docs', spaces: [space.id] }, admin);
    await p.sites.call(ops.publishSite, { organizationId: org, siteId: site.id }, admin);
    return { info, site };
  };
  return { p, admin, newRepo, push, importInto, visit, publishedFrom };
}
