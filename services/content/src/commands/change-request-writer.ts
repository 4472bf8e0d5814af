import { Events, type ChangeRequestStatus } from '@quire/contracts';
import { newId, recordEvent, type EntityManager } from '@quire/kit';
import { ChangeRequest, type IChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { changeRequestRepository } from '../modules/change-requests/change-request.repository.ts';
import type { ISpace } from '../modules/spaces/space.entity.ts';
import { assertEditable } from './edit-state.ts';

export interface ChangeRequestCreatorProps {
  space: ISpace;
  createdBy: string;
  subject?: string | undefined;
  agentTaskId?: string | undefined;
  now?: Date;
}

/**
 * A new change request on the space's current content, numbered next in the space, created as a draft (as
 * GitBook does: it becomes `open` when submitted for review). The space's counters follow.
 */
export async function changeRequestCreator(
  em: EntityManager,
  props: ChangeRequestCreatorProps,
): Promise<IChangeRequest> {
  const now = props.now ?? new Date();
  const { space } = props;
  const number = await changeRequestRepository.nextNumber(em, space.id);
  const cr = em.create(ChangeRequest, {
    id: newId(),
    spaceId: space.id,
    number,
    status: 'draft',
    subject: props.subject ?? '',
    agentTaskId: props.agentTaskId ?? null,
    createdBy: props.createdBy,
    createdAt: now,
    updatedAt: now,
    revisionId: space.revisionId,
    revisionInitial: space.revisionId,
    revisionMergedAncestor: null,
    revisionMerged: null,
    mergedBy: null,
    mergedAt: null,
    comments: 0,
    conflicts: [],
  });
  await changeRequestRepository.count(em, space.id, null, cr.status);
  recordEvent(em, Events.changeRequestCreated, {
    space: space.id,
    organization: space.organizationId,
    changeRequest: cr.id,
    number,
    createdBy: props.createdBy,
  });
  return cr;
}

export interface ChangeRequestUpdaterProps {
  space: ISpace;
  changeRequest: IChangeRequest;
  subject?: string | undefined;
  status?: Exclude<ChangeRequestStatus, 'merged'> | undefined;
  now?: Date;
}

/** Changes the subject and/or status; a merged change request is read-only (409). */
export async function changeRequestUpdater(
  em: EntityManager,
  props: ChangeRequestUpdaterProps,
): Promise<IChangeRequest> {
  const { space, changeRequest: cr } = props;
  assertEditable(null, cr);
  const base = { space: space.id, organization: space.organizationId, changeRequest: cr.id };
  let changed = false;
  if (props.subject !== undefined && props.subject !== cr.subject) {
    cr.subject = props.subject;
    changed = true;
    recordEvent(em, Events.changeRequestUpdated, { ...base, fields: ['subject'] });
  }
  if (props.status !== undefined && props.status !== cr.status) {
    const previousStatus = cr.status;
    cr.status = props.status;
    changed = true;
    await changeRequestRepository.count(em, space.id, previousStatus, cr.status);
    recordEvent(em, Events.changeRequestStatusChanged, { ...base, status: cr.status, previousStatus });
  }
  if (changed) {
    cr.updatedAt = props.now ?? new Date();
    em.persist(cr);
  }
  return cr;
}

/**
 * Points a change request at the new revision of its content (an edit, an import): its author becomes a
 * contributor, `change-request.updated` names the content.
 */
export async function changeRequestContentWriter(
  em: EntityManager,
  props: { space: ISpace; cr: IChangeRequest; revisionId: string; userId: string; now: Date },
): Promise<void> {
  const { space, cr, now } = props;
  cr.revisionId = props.revisionId;
  cr.updatedAt = now;
  em.persist(cr);
  await changeRequestRepository.addContributor(em, cr.id, props.userId, now);
  recordEvent(em, Events.changeRequestUpdated, {
    space: space.id,
    organization: space.organizationId,
    changeRequest: cr.id,
    fields: ['content'],
  });
}
