import type { Reader } from '@quire/contracts';
import { DomainError } from '@quire/kit';
import { LRUCache } from 'lru-cache';
import type { ContentContext } from '../../trpc.ts';
import { documentEvaluation } from '../access/access.policy.ts';
import { loadRevisionFor } from '../content/content.loader.ts';
import { pageDocument } from '../content/document-format.ts';
import { loadDereferenced } from '../reusable-content/reusable-content.loader.ts';
import { reusableContentsOf } from '../revisions/revision-tree.ts';
import { searchRepository } from '../search/search.repository.ts';
import { openAPISpecRepository } from './openapi-spec.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor' | 'config'>;

/** A node of a JSON document, as far as finding OpenAPI blocks is concerned. */
interface Node {
  object?: string;
  data?: { ref?: { kind?: unknown; spec?: unknown } };
  nodes?: Node[];
  fragments?: Node[];
}

/** Whether a document has a block showing the specification of `slug` (`openapi-operation`, `-schemas`, `-webhook`). */
export function documentShowsSpec(document: object, slug: string): boolean {
  const { nodes, fragments } = document as Node;
  for (const child of [...(nodes ?? []), ...(fragments ?? [])]) {
    const ref = child.object === 'block' ? child.data?.ref : undefined;
    if (ref?.kind === 'openapi' && ref.spec === slug) return true;
    if (documentShowsSpec(child, slug)) return true;
  }
  return false;
}

/**
 * Answers per live revision, specification and visitor claims (revisions never change; a new live revision is
 * another key).
 */
const answers = new LRUCache<string, boolean>({ max: 10_000 });
/** The page documents that may show a specification, per revision and specification (whatever the claims). */
const candidatesOf = new LRUCache<string, ReadonlySet<string>>({ max: 10_000 });

/**
 * Whether a space's live revision shows the specification of `slug` to this reader: a page it may read (not hidden,
 * nor under a hidden page) whose document, evaluated against its claims and with the reusable contents it includes
 * expanded (evaluated alike), has a block of the specification. Only the documents whose markdown names the slug
 * (and, when a reusable content's does, those with an include tag) are parsed.
 */
async function spaceShowsSpec(ctx: Ctx, reader: Reader, spaceId: string, slug: string): Promise<boolean> {
  let tree: Awaited<ReturnType<typeof loadRevisionFor>>['tree'];
  try {
    tree = (await loadRevisionFor(ctx, { spaceId })).tree;
  } catch (err) {
    if (err instanceof DomainError && err.reason === 'not_found') return false;
    throw err;
  }
  const key = `${tree.revision.id}\u0000${slug}\u0000${JSON.stringify(reader.claims)}`;
  const known = answers.get(key);
  if (known !== undefined) return known;
  const pages = [...tree.pages.values()].filter((p) => p.kind === 'document' && p.documentHash);
  const candidatesKey = `${tree.revision.id}\u0000${slug}`;
  let candidates = candidatesOf.get(candidatesKey);
  if (!candidates) {
    const included = [...reusableContentsOf(tree).values()].flatMap((r) => (r.documentHash ? [r.documentHash] : []));
    const hashes = pages.map((p) => p.documentHash!);
    const naming = new Set(await openAPISpecRepository.documentsNaming(ctx.em, [...hashes, ...included], slug));
    const found = new Set(hashes.filter((h) => naming.has(h)));
    if (included.some((h) => naming.has(h)))
      for (const h of await searchRepository.documentsWithIncludes(ctx.em, hashes)) found.add(h);
    candidatesOf.set(candidatesKey, (candidates = found));
  }
  const evaluation = documentEvaluation(ctx.actor, undefined);
  let shows = false;
  for (const page of pages) {
    if (!candidates.has(page.documentHash!)) continue;
    const read = await pageDocument(ctx, page, 'document', evaluation);
    if (!read || !('document' in read)) continue;
    const at = { spaceId, tree, evaluation, dereferenced: true };
    if (documentShowsSpec(await loadDereferenced(ctx, at, read.document as Record<string, unknown>), slug)) {
      shows = true;
      break;
    }
  }
  answers.set(key, shows);
  return shows;
}

/** Whether a page the reader may read on its site (in any of its site spaces) shows the specification of `slug`. */
export async function readerSiteShowsSpec(ctx: Ctx, reader: Reader, slug: string): Promise<boolean> {
  for (const spaceId of new Set(reader.siteSpaces.map((s) => s.space)))
    if (await spaceShowsSpec(ctx, reader, spaceId, slug)) return true;
  return false;
}
