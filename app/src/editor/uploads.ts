// Images, files and page links: the editor nodes that reference a file of the change request or a page of the space.
import type { EditorNode } from '@quire/document/editor';

/** The largest file `updateChangeRequestContent` takes as `base64` (1 MiB decoded). */
export const MAX_FILE_BYTES = 1024 * 1024;

/** Download URLs of the space's files by id: an image block shows its picture when its file is known here. */
export const fileUrls = new Map<string, string>();
/** Names of the space's files and titles of its pages by id: a file block or a page reference shows them. */
export const fileNames = new Map<string, string>();
export const pageTitles = new Map<string, string>();
/** The titles of the organization's spaces by id (a link to a space names it). */
export const spaceTitles = new Map<string, string>();
/** The titles of the space's reusable contents by id (a reusable content block shows its title). */
export const reusableTitles = new Map<string, string>();

/**
 * Where the browser loads a file's download link from: the gateway that serves the app serves `/v1/downloads/…` too,
 * so a link of this API is read on the app's own origin (the public URL may name another host, e.g. behind a proxy).
 */
export const downloadSrc = (url: string): string => {
  try {
    const u = new URL(url);
    return u.pathname.startsWith('/v1/downloads/') ? `${u.pathname}${u.search}` : url;
  } catch {
    return url;
  }
};

/** Why a file cannot be uploaded (too large), or undefined. */
export const tooLarge = (file: { name: string; size: number }): string | undefined =>
  file.size > MAX_FILE_BYTES
    ? `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MiB: a file can be at most 1 MiB.`
    : undefined;

/** The bytes as base64 (what `insert_files` takes). */
export async function toBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** GitBook's `images` block holding one image of a file. */
export const imagesNode = (file: string, alt = ''): EditorNode => ({
  type: 'images',
  attrs: { data: {} },
  content: [
    {
      type: 'image',
      attrs: { data: { ref: { kind: 'file', file }, ...(alt ? { alt } : {}) }, rest: { isVoid: true, fragments: [] } },
    },
  ],
});

/** GitBook's `file` block. */
export const fileNode = (file: string): EditorNode => ({
  type: 'file',
  attrs: { data: { ref: { kind: 'file', file } }, rest: { isVoid: true } },
});

/** GitBook's `drawing` block: a picture of a file (GitBook's editor draws it; Quire uploads the file drawn). */
export const drawingNode = (file: string): EditorNode => ({
  type: 'drawing',
  attrs: { data: { ref: { kind: 'file', file } }, rest: { isVoid: true } },
});

/** GitBook's `content-ref` block: a card linking to a page. */
export const contentRefNode = (page: string): EditorNode => ({
  type: 'contentRef',
  attrs: { data: { ref: { kind: 'page', page } }, rest: { isVoid: true } },
});

/** The `data` of a link to a page (the `link` mark's attribute). */
export const pageLinkData = (page: string) => ({ ref: { kind: 'page', page } });

/** A page of the tree, flattened for the picker (its title and its path). */
export interface PickablePage {
  id: string;
  title: string;
  path: string;
}
interface TreePage {
  id: string;
  title: string;
  type?: string;
  path?: string;
  pages?: TreePage[];
}
/** The pages (documents) of a revision's tree, depth first, groups and links skipped but their children kept. */
export function flattenPages(pages: readonly TreePage[]): PickablePage[] {
  const out: PickablePage[] = [];
  const walk = (list: readonly TreePage[]) => {
    for (const p of list) {
      if (p.type !== 'group' && p.type !== 'link' && p.path !== undefined)
        out.push({ id: p.id, title: p.title, path: p.path });
      if (p.pages) walk(p.pages);
    }
  };
  walk(pages);
  return out;
}

/** The pages whose title or path contains the filter (case-insensitive). */
export const filterPages = (pages: readonly PickablePage[], filter: string): PickablePage[] => {
  const q = filter.trim().toLowerCase();
  return q ? pages.filter((p) => p.title.toLowerCase().includes(q) || p.path.toLowerCase().includes(q)) : [...pages];
};
