import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn, timestampColumns } from '@quire/kit';
import type { DefaultLevel, MergeRulesSpaceConfiguration, SpaceVisibility } from '@quire/contracts';
import { treeNodeColumns } from '../collections/collection.entity.ts';

export const Space = defineEntity({
  name: 'Space',
  tableName: 'space',
  properties: {
    ...idColumn(),
    ...treeNodeColumns(),
    title: p.string(),
    emoji: p.string(),
    icon: p.string().nullable(),
    visibility: p.string().$type<SpaceVisibility>(),
    editMode: p.string().$type<'live' | 'locked'>(),
    defaultLevel: p.string().$type<DefaultLevel>().nullable(),
    revisionId: p.string(),
    comments: p.integer().default(0),
    changeRequests: p.integer().default(0),
    changeRequestsOpen: p.integer().default(0),
    changeRequestsDraft: p.integer().default(0),
    /** The last change request number given in the space (numbers are per space). */
    changeRequestSeq: p.integer().default(0),
    /** Its merge rules (modules/merge-rules): its own, `none`, or `inherit` (its organization's). */
    mergeRules: p.json<MergeRulesSpaceConfiguration>().defaultRaw(`'{"type":"inherit"}'`),
    ...timestampColumns(),
    deletedAt: p.datetime().nullable(),
    /** Who moved it to the trash (a user id; null when live, or not known). */
    deletedBy: p.string().nullable(),
  },
});
export type ISpace = InferEntity<typeof Space>;

/**
 * Revisions are immutable; a space's first one is empty (no pages). Its pages and files are the rows of the
 * revisions in its `lineage` (a snapshot first, then deltas, itself last): see modules/revisions.
 */
export const Revision = defineEntity({
  name: 'Revision',
  tableName: 'revision',
  properties: {
    ...idColumn(),
    spaceId: p.string(),
    parents: p.json<string[]>(),
    type: p.string().$type<RevisionType>(),
    createdAt: p.datetime(),
    createdBy: p.string().nullable(),
    changeRequestId: p.string().nullable(),
    lineage: p.json<string[]>(),
    /** Pages whose merge kept both sides between conflict markers, with the fields in conflict. */
    conflicts: p.json<{ pageId: string; fields: string[] }[]>(),
  },
});

export type RevisionType = 'edits' | 'merge' | 'update' | 'rollback';
export type IRevision = InferEntity<typeof Revision>;
