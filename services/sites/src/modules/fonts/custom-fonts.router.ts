import { ops } from '@quire/contracts';
import { pageOfList } from '@quire/kit';
import {
  customFontCreator,
  customFontDeleter,
  customFontUpdater,
  storageFileStorer,
} from '../../commands/custom-font-commands.ts';
import { implement } from '../../trpc.ts';
import {
  loadCustomFontFor,
  loadCustomFonts,
  loadFontFile,
  loadFontToCreate,
  loadFontToUpdate,
  loadUploadedFile,
  loadUploadGrant,
} from './custom-font.loader.ts';
import { presentCustomFont, presentFontFile, presentUploadUrl } from './custom-font.presenter.ts';

/** Custom fonts of an organization and the uploads of their files (members read, org admins write). */
export const customFontProcedures = {
  listCustomFonts: implement(ops.listCustomFonts, async ({ input, ctx }) => {
    const { fonts, files, level } = await loadCustomFonts(ctx, input.organizationId);
    const page = pageOfList(fonts, (f) => [f.fontFamily, f.id], input);
    return { ...page, items: page.items.map((f) => presentCustomFont(ctx, f, files, level)) };
  }),

  createCustomFont: implement(ops.createCustomFont, async ({ input, ctx }) => {
    const { font, files, level } = await loadFontToCreate(ctx, input);
    return presentCustomFont(ctx, await customFontCreator(ctx.em, { font }), files, level);
  }),

  getCustomFont: implement(ops.getCustomFont, async ({ input, ctx }) => {
    const { font, files, level } = await loadCustomFontFor(ctx, input, 'view');
    return presentCustomFont(ctx, font, files, level);
  }),

  updateCustomFont: implement(ops.updateCustomFont, async ({ input, ctx }) => {
    const { font, previous, definition, files, level } = await loadFontToUpdate(ctx, input);
    return presentCustomFont(ctx, await customFontUpdater(ctx.em, { font, previous, definition }), files, level);
  }),

  deleteCustomFont: implement(ops.deleteCustomFont, async ({ input, ctx }) => {
    await customFontDeleter(ctx.em, await loadCustomFontFor(ctx, input, 'edit'));
  }),

  generateStorageUploadURL: implement(ops.generateStorageUploadURL, async ({ input, ctx }) => {
    return presentUploadUrl(ctx, loadUploadGrant(ctx, input));
  }),

  /** gateway → sites: the bytes `PUT` to a signed upload URL. */
  uploadStorageFile: implement(ops.uploadStorageFile, async ({ input, ctx }) => {
    const upload = await loadUploadedFile(ctx, input);
    const file = await storageFileStorer(ctx.em, { blobs: ctx.blobs, ...upload });
    return { key: file.key };
  }),

  /** gateway → sites: a custom font's file (`/_quire/fonts/files/{sha256}.{ext}`). */
  getCustomFontFile: implement(ops.getCustomFontFile, async ({ input, ctx }) => {
    return presentFontFile(await loadFontFile(ctx, input.blobKey));
  }),
};
