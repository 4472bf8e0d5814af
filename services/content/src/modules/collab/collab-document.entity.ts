import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The Y.js state of one live document: a page of a change request being edited together (see migration 0020).
 * The GitBook document stays canonical (the change request's revision); this keeps the edit history clients sync
 * against, so a document reopened (or a service restarted) resumes without a reset of every open editor.
 */
export const CollabDocument = defineEntity({
  name: 'CollabDocument',
  tableName: 'collab_document',
  properties: {
    /** The Hocuspocus document name: `spaces/<space>/change-requests/<change request>/page/<page>`. */
    name: p.string().primary(),
    spaceId: p.string(),
    changeRequestId: p.string(),
    pageId: p.string(),
    /** `Y.encodeStateAsUpdate` of the document. */
    state: p.blob(),
    /** The change request's revision the state was last written into (or seeded from). */
    revisionId: p.string(),
    updatedAt: p.datetime(),
  },
});
export type ICollabDocument = InferEntity<typeof CollabDocument>;
