import type { EntityManager } from '@quire/kit';
import {
  collabDocumentRepository,
  type CollabDocumentRow,
  type StoredCollabState,
} from '../modules/collab/collab-document.repository.ts';

/**
 * Logs one update a writer sent to a live document, before it is applied: one statement on the pool, so a crash
 * loses no acknowledged keystroke (the next open replays it). Resolves to its sequence number.
 */
export function collabUpdateLogger(em: EntityManager, { name, update }: { name: string; update: Uint8Array }) {
  return collabDocumentRepository.append(em, name, update);
}

export interface CollabStateStorerProps {
  document: CollabDocumentRow;
  /** The Y.js state, as of the change request's revision it matches. */
  stored: StoredCollabState;
  /** The logged updates merged into that state (read under the same lock), dropped with it. */
  dropped: number[];
  now?: Date;
}

/**
 * Stores a live document's Y.js state and drops the logged updates it holds, in one statement; the caller's
 * transaction holds the document's lock (`collabDocumentRepository.lock`), so the replicas having it open take turns.
 */
export async function collabStateStorer(em: EntityManager, props: CollabStateStorerProps): Promise<void> {
  await collabDocumentRepository.save(em, props.document, props.stored, props.dropped, props.now ?? new Date());
}
