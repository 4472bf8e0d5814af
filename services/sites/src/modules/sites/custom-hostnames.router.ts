import { ops } from '@quire/contracts';
import { implement, implementPrepared } from '../../trpc.ts';
import { hostnameCheckRecorder } from '../../commands/hostname-commands.ts';
import { loadSiteClaiming } from './custom-hostname.loader.ts';
import { presentCustomHostname } from './custom-hostname.presenter.ts';
import { checkHostnameDns } from './hostname-dns.ts';
import { SiteTree } from '../structure/site-tree.ts';
import { siteUpdater } from '../../commands/site-updater.ts';

/**
 * GitBook's custom hostnames (`/custom-hostnames/{hostname}`): the DNS status of a site's hostname and the TXT
 * record proving it, a check on demand, and its removal. The recheck job (`hostname-recheck.job.ts`) checks
 * every claimed hostname on a schedule.
 */
export const customHostnameProcedures = {
  getCustomHostname: implement(ops.getCustomHostname, async ({ input, ctx }) => {
    const { site } = await loadSiteClaiming(ctx, input.hostname, 'view');
    return presentCustomHostname(ctx, site);
  }),

  // The DNS is asked in `prepare`, outside the transaction; the check is recorded under the site's row lock.
  dnsRevalidateCustomHostname: implementPrepared(
    ops.dnsRevalidateCustomHostname,
    async ({ input, ctx }) => {
      const { site } = await loadSiteClaiming(ctx, input.hostname, 'update');
      const token = site.hostnameToken ?? '';
      return { token, status: await checkHostnameDns(input.hostname, token) };
    },
    async ({ input, ctx, prepared }) => {
      const { site } = await loadSiteClaiming(ctx, input.hostname, 'update', { lock: true });
      await hostnameCheckRecorder(ctx.em, { site, ...prepared });
    },
  ),

  removeCustomHostname: implement(ops.removeCustomHostname, async ({ input, ctx }) => {
    const { site } = await loadSiteClaiming(ctx, input.hostname, 'update', { lock: true });
    await siteUpdater(ctx.em, { site, tree: await SiteTree.load(ctx.em, site.id), hostname: null });
  }),
};
