import { ops } from '@quire/contracts';
import { implementPrepared, type ContentContext } from '../../trpc.ts';
import { MAX_FILE_BYTES } from '../../commands/content-editor.ts';
import { assertEditable } from '../../commands/edit-state.ts';
import { contentImporter } from '../../commands/content-importer.ts';
import { loadChangeRequestFor } from '../change-requests/change-request.loader.ts';
import { loadSpaceFor } from '../spaces/space.loader.ts';
import { memberSlots } from '../parsing/member-slots.ts';
import { parseSettingsOf, textParser } from '../parsing/text-parser.ts';
import { crawlWebsite, websiteFetch, type CrawledSite } from './website-crawler.ts';

/** The parses of an import (its HTML converted, its pages read) share the import's time, `QUIRE_IMPORT_TIMEOUT_MS`. */
const importParse = (ctx: Pick<ContentContext, 'config'>) =>
  textParser(parseSettingsOf(ctx.config)).session(ctx.config.QUIRE_IMPORT_TIMEOUT_MS);

/**
 * Crawls the site with the service's settings, through the guarded fetch, in one of the member's import slots
 * (`QUIRE_MEMBER_CONCURRENT_IMPORTS`: a member's imports past it are a 429); logs what it found.
 */
async function crawl(
  ctx: Pick<ContentContext, 'config' | 'log'> & { actor: { userId: string } },
  url: string,
): Promise<CrawledSite> {
  const c = ctx.config;
  const slots = memberSlots('website imports', c.QUIRE_MEMBER_CONCURRENT_IMPORTS);
  const site = await slots.run(ctx.actor.userId, () =>
    crawlWebsite(url, websiteFetch(c), {
      maxDepth: c.QUIRE_IMPORT_MAX_DEPTH,
      maxPages: c.QUIRE_IMPORT_MAX_PAGES,
      maxBytes: c.QUIRE_IMPORT_MAX_BYTES,
      timeoutMs: c.QUIRE_IMPORT_TIMEOUT_MS,
      concurrency: c.QUIRE_IMPORT_CONCURRENCY,
      maxImageBytes: MAX_FILE_BYTES,
    }),
  );
  ctx.log.info(
    {
      url,
      pages: site.pages.length,
      images: site.images.size,
      importedResources: site.importedResources,
      totalResources: site.totalResources,
      bytes: site.bytes,
      ms: site.ms,
      skipped: site.skipped.slice(0, 20),
    },
    'website crawled for an import',
  );
  return site;
}

/**
 * Website import. Each runs in two phases (`implementPrepared`): access and state are checked, then the site is
 * fetched, outside any transaction; then, in the mutation's transaction, the space (or change request) is loaded
 * again and the import is written.
 */
export const importProcedures = {
  importContent: implementPrepared(
    ops.importContent,
    async ({ input, ctx }) => {
      assertEditable((await loadSpaceFor(ctx, input.spaceId, 'import')).space);
      return crawl(ctx, input.url);
    },
    async ({ input, ctx, prepared: site }) => {
      const { space } = await loadSpaceFor(ctx, input.spaceId, 'import');
      return contentImporter(ctx.em, {
        space,
        site,
        userId: ctx.actor.userId,
        blobs: ctx.blobs,
        parse: importParse(ctx),
      });
    },
  ),

  importContentInChangeRequest: implementPrepared(
    ops.importContentInChangeRequest,
    async ({ input, ctx }) => {
      const { space, changeRequest } = await loadChangeRequestFor(ctx, input, 'edit');
      assertEditable(space, changeRequest);
      return crawl(ctx, input.url);
    },
    async ({ input, ctx, prepared: site }) => {
      const { space, changeRequest } = await loadChangeRequestFor(ctx, input, 'edit');
      return contentImporter(ctx.em, {
        space,
        changeRequest,
        site,
        userId: ctx.actor.userId,
        blobs: ctx.blobs,
        parse: importParse(ctx),
      });
    },
  ),
};
