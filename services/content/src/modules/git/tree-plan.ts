import { imageSize } from 'image-size';
import { orderKeysFor } from '@quire/kit';
import {
  reusableContentsOf,
  samePage,
  sameReusableContent,
  type FileRecord,
  type PageRecord,
  type ReusableContentRecord,
  type RevisionTree,
} from '../revisions/revision-tree.ts';
import { documentHash } from '../revisions/document.repository.ts';
import { repoAttributes, type RepoFile, type RepoPage, type RepoReusableContent } from './repo-export.ts';

export interface PlannedTree {
  pages: Map<string, PageRecord>;
  files: Map<string, FileRecord>;
  /** The reusable contents (absent: the head's, unchanged). */
  reusableContents?: Map<string, ReusableContentRecord>;
  documents: Map<string, string>;
  /** Whether anything differs from the head. */
  changed: boolean;
}

/** Sibling order keys: the existing ones when they already sort in the new order, new ones otherwise. */
function ordersOf(list: readonly RepoPage[], parentId: string | null, head: RevisionTree): string[] {
  const old = list.map((p) => head.pages.get(p.id));
  const keep = old.every((o, i) => o && o.parentId === parentId && (i === 0 || old[i - 1]!.order < o.order));
  return keep ? old.map((o) => o!.order) : orderKeysFor(list.length);
}

export const contentTypeOf = (
  name: string,
  bytes: Uint8Array,
): { type: string; width: number | null; height: number | null } => {
  try {
    const size = imageSize(bytes);
    if (size.width && size.height && size.type) {
      const sub = size.type === 'jpg' ? 'jpeg' : size.type === 'svg' ? 'svg+xml' : size.type;
      return { type: `image/${sub}`, width: size.width, height: size.height };
    }
  } catch {
    // not an image
  }
  const ext = name.split('.').at(-1)?.toLowerCase();
  const known: Record<string, string> = {
    pdf: 'application/pdf',
    txt: 'text/plain',
    json: 'application/json',
    csv: 'text/csv',
    zip: 'application/zip',
  };
  return { type: (ext && known[ext]) || 'application/octet-stream', width: null, height: null };
};

/**
 * The tree a repository read gives, against the head it replaces: pages keep what the repository does not say
 * (layout, cover, index flags, creation time), ids come from the repository read; files are stored blobs.
 * `normalized` holds each page's (and reusable content's) normalised markdown by id; `blobs` each file's stored key
 * and size by id. `reusable`: the repository's reusable contents (`.gitbook/includes/`), see `plannedReusable`.
 */
export function planTree(
  head: RevisionTree,
  pages: readonly RepoPage[],
  files: readonly RepoFile[],
  normalized: ReadonlyMap<string, string>,
  blobs: ReadonlyMap<string, { key: string; size: number }>,
  now: Date,
  reusable?: readonly RepoReusableContent[],
): PlannedTree {
  const out: PlannedTree = { pages: new Map(), files: new Map(), documents: new Map(), changed: false };
  const walk = (list: readonly RepoPage[], parentId: string | null) => {
    const orders = ordersOf(list, parentId, head);
    list.forEach((p, i) => {
      const markdown = normalized.get(p.id) ?? '';
      const hash = p.kind === 'document' && markdown.trim() ? documentHash(markdown) : null;
      if (hash) out.documents.set(hash, markdown);
      const next = plannedPage(p, head.pages.get(p.id), parentId, orders[i]!, hash, now);
      if (next.changed) out.changed = true;
      out.pages.set(p.id, next.page);
      walk(p.children, p.id);
    });
  };
  walk(pages, null);
  for (const f of files) {
    const file = plannedFile(f, head.files.get(f.id), blobs.get(f.id)!, now);
    if (file.changed) out.changed = true;
    out.files.set(f.id, file.file);
  }
  if (head.pages.size !== out.pages.size || [...head.pages.keys()].some((id) => !out.pages.has(id))) out.changed = true;
  if ([...head.files.keys()].some((id) => !out.files.has(id))) out.changed = true;
  if (reusable) {
    const planned = plannedReusable(head, reusable, normalized, out.documents, now);
    out.reusableContents = planned.records;
    if (planned.changed) out.changed = true;
  }
  return out;
}

/**
 * The reusable contents as the repository has them (the head's record when its title and document are the same). One
 * the repository lacks is deleted, unless a page of the import still includes it by its id (`{% include "<id>" %}`:
 * written by an export before reusable contents were exported) — then it is kept as the head has it.
 */
function plannedReusable(
  head: RevisionTree,
  list: readonly RepoReusableContent[],
  normalized: ReadonlyMap<string, string>,
  documents: Map<string, string>,
  now: Date,
): { records: Map<string, ReusableContentRecord>; changed: boolean } {
  const before = reusableContentsOf(head);
  const records = new Map<string, ReusableContentRecord>();
  let changed = false;
  for (const rc of list) {
    const markdown = normalized.get(rc.id) ?? '';
    const hash = markdown.trim() ? documentHash(markdown) : null;
    if (hash) documents.set(hash, markdown);
    const old = before.get(rc.id);
    const next = { id: rc.id, title: rc.title, documentHash: hash, createdAt: old?.createdAt ?? now, updatedAt: now };
    if (sameReusableContent(old, next)) records.set(rc.id, old!);
    else {
      records.set(rc.id, next);
      changed = true;
    }
  }
  const included = [...documents.values()].join('\n');
  for (const [id, old] of before) {
    if (records.has(id)) continue;
    if (included.includes(`{% include "${id}"`)) records.set(id, old);
    else changed = true;
  }
  return { records, changed };
}

/** A page as the repository has it, keeping what Git does not carry (noIndex, layout, cover…) from the head's. */
function plannedPage(
  p: RepoPage,
  old: PageRecord | undefined,
  parentId: string | null,
  order: string,
  documentHash: string | null,
  now: Date,
): { page: PageRecord; changed: boolean } {
  const page: PageRecord = {
    id: p.id,
    parentId,
    order,
    kind: p.kind,
    ...repoAttributes(p),
    noIndex: p.noIndex ?? old?.noIndex ?? false,
    noRobotsIndex: p.noRobotsIndex ?? old?.noRobotsIndex ?? false,
    layout: old?.layout ?? null,
    cover: p.cover ?? old?.cover ?? null,
    href: p.href,
    documentHash,
    createdAt: old?.createdAt ?? now,
    updatedAt: now,
  };
  const same = samePage(old, page);
  if (same && old) page.updatedAt = old.updatedAt;
  return { page, changed: !same };
}

/** A file as the repository has it: the head's own record when its bytes and name are the same. */
function plannedFile(
  f: RepoFile,
  old: FileRecord | undefined,
  blob: { key: string; size: number },
  now: Date,
): { file: FileRecord; changed: boolean } {
  if (old && old.blobKey === blob.key && old.name === f.name) return { file: old, changed: false };
  const { type, width, height } = contentTypeOf(f.name, f.bytes);
  return {
    file: {
      id: f.id,
      name: f.name,
      contentType: type,
      size: blob.size,
      blobKey: blob.key,
      width,
      height,
      createdAt: old?.createdAt ?? now,
    },
    changed: true,
  };
}
