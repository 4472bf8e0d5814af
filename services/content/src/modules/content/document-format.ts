import type { EntityManager } from '@quire/kit';
import { markdownToDocument } from '../documents/index.ts';
import { documentRepository } from '../revisions/document.repository.ts';
import type { PageRecord } from '../revisions/revision-tree.ts';

/** A page's document in the format asked: `{markdown}`, or GitBook's JSON document `{document}` (converted from the stored markdown). */
export async function pageDocument(em: EntityManager, page: PageRecord, format: 'markdown' | 'document' | undefined): Promise<{ markdown: string } | { document: Record<string, unknown> } | undefined> {
  if (!format || page.kind !== 'document') return undefined;
  const markdown = page.documentHash ? await documentRepository.get(em, page.documentHash) : '';
  return format === 'markdown' ? { markdown } : { document: markdownToDocument(markdown) as unknown as Record<string, unknown> };
}
