import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn, timestampColumns } from '@quire/kit';
import type { ChangeRequestStatus } from '@quire/contracts';

/** A change request: a branch of a space's content, numbered per space, merged back into the space. */
export const ChangeRequest = defineEntity({
  name: 'ChangeRequest',
  tableName: 'change_request',
  properties: {
    ...idColumn(),
    spaceId: p.string(),
    number: p.integer(),
    status: p.string().$type<ChangeRequestStatus>(),
    subject: p.string(),
    agentTaskId: p.string().nullable(),
    createdBy: p.string(),
    ...timestampColumns(),
    /** Its current (head) revision. */
    revisionId: p.string(),
    /** The space revision it was created from. */
    revisionInitial: p.string(),
    /** The space revision it was last updated from (its merge base once updated). */
    revisionMergedAncestor: p.string().nullable(),
    revisionMerged: p.string().nullable(),
    mergedBy: p.string().nullable(),
    mergedAt: p.datetime().nullable(),
    comments: p.integer().default(0),
    /**
     * The pages in conflict with the space's content, by id: those a refused merge found, then those holding
     * conflict blocks after an update or an edit. Empty when the change request is not conflicting.
     */
    conflicts: p.json<string[]>().default([]),
  },
});
export type IChangeRequest = InferEntity<typeof ChangeRequest>;

/** The main revision the change request branches from: where a merge or an update starts (its merge base). */
export const mergeBaseOf = (cr: IChangeRequest) => cr.revisionMergedAncestor ?? cr.revisionInitial;
