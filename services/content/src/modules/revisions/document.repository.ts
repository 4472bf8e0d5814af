import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { marks, sql, sqlRun, type EntityManager } from '@quire/kit';

/** The content address of a document: SHA-256 of its markdown. */
export const documentHash = (markdown: string) => createHash('sha256').update(markdown).digest('hex');

/** Documents never change (the hash is their content), so recently read ones are kept: an LRU bounded in characters. */
const CACHE_CHARS = 32 * 1024 * 1024;
const cache = new LRUCache<string, string>({
  maxSize: CACHE_CHARS,
  maxEntrySize: CACHE_CHARS / 64,
  sizeCalculation: (markdown) => Math.max(1, markdown.length),
});

/** Page documents, content-addressed: a document is stored once, whatever the number of revisions sharing it. */
export const documentRepository = {
  /** Stores documents (known hashes are left as they are). */
  async putMany(em: EntityManager, documents: ReadonlyMap<string, string>, now = new Date()): Promise<void> {
    const entries = [...documents];
    for (let i = 0; i < entries.length; i += 500) {
      const chunk = entries.slice(i, i + 500);
      await sqlRun(
        em,
        `insert into :schema.document (hash, markdown, created_at) values ${chunk.map(() => '(?, ?, ?)').join(', ')} on conflict (hash) do nothing`,
        chunk.flatMap(([hash, markdown]) => [hash, markdown, now]),
      );
    }
  },

  async getMany(em: EntityManager, hashes: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const wanted: string[] = [];
    for (const hash of new Set(hashes)) {
      const known = cache.get(hash);
      if (known === undefined) wanted.push(hash);
      else out.set(hash, known);
    }
    for (let i = 0; i < wanted.length; i += 1000) {
      const chunk = wanted.slice(i, i + 1000);
      for (const r of await sql<{ hash: string; markdown: string }>(
        em,
        `select hash, markdown from :schema.document where hash in (${marks(chunk.length)})`,
        chunk,
      )) {
        out.set(r.hash, r.markdown);
        cache.set(r.hash, r.markdown);
      }
    }
    return out;
  },

  async get(em: EntityManager, hash: string): Promise<string> {
    const found = (await documentRepository.getMany(em, [hash])).get(hash);
    if (found === undefined) throw new Error(`document ${hash} is missing`);
    return found;
  },
};
