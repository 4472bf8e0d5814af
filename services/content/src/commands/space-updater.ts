import {
  Events,
  type DefaultLevel,
  type MergeRulesSpaceConfiguration,
  type SpaceEditMode,
  type SpaceVisibility,
} from '@quire/contracts';
import { invalid, recordEvent, type EntityManager } from '@quire/kit';
import type { ISpace } from '../modules/spaces/space.entity.ts';

export interface SpaceUpdaterProps {
  space: ISpace;
  title?: string | undefined;
  /** null removes the emoji. */
  emoji?: string | null | undefined;
  /** null removes the icon. */
  icon?: string | null | undefined;
  editMode?: SpaceEditMode | undefined;
  defaultLevel?: DefaultLevel | undefined;
  visibility?: SpaceVisibility | undefined;
  mergeRules?: MergeRulesSpaceConfiguration | undefined;
  now?: Date;
}

/**
 * Applies the settings that change; `space.updated` names them. Nothing changes (and no event) when every
 * value is already set. `in-collection` visibility only exists for spaces inside a collection (400).
 */
export async function spaceUpdater(em: EntityManager, props: SpaceUpdaterProps): Promise<ISpace> {
  const { space } = props;
  if (props.visibility === 'in-collection' && space.parentId === null) {
    throw invalid('visibility: `in-collection` is only for a space inside a collection');
  }
  const changes: Partial<
    Pick<ISpace, 'title' | 'emoji' | 'icon' | 'editMode' | 'defaultLevel' | 'visibility' | 'mergeRules'>
  > = {};
  if (props.title !== undefined && props.title !== space.title) changes.title = props.title;
  if (props.emoji !== undefined && (props.emoji ?? '') !== space.emoji) changes.emoji = props.emoji ?? '';
  if (props.icon !== undefined && props.icon !== space.icon) changes.icon = props.icon;
  // An emoji and an icon exclude each other (GitBook: one of the two).
  if (props.emoji && space.icon !== null) changes.icon = null;
  if (props.icon && space.emoji !== '') changes.emoji = '';
  if (props.editMode !== undefined && props.editMode !== space.editMode) changes.editMode = props.editMode;
  if (props.defaultLevel !== undefined && props.defaultLevel !== (space.defaultLevel ?? null))
    changes.defaultLevel = props.defaultLevel;
  if (props.visibility !== undefined && props.visibility !== space.visibility) changes.visibility = props.visibility;
  if (props.mergeRules !== undefined && JSON.stringify(props.mergeRules) !== JSON.stringify(space.mergeRules))
    changes.mergeRules = props.mergeRules;
  const fields = Object.keys(changes);
  if (!fields.length) return space;
  Object.assign(space, changes, { updatedAt: props.now ?? new Date() });
  return spaceChangeRecorder(em, space, fields);
}

/** Saves a space changed in place and records `space.updated` naming the fields that changed. */
export function spaceChangeRecorder(em: EntityManager, space: ISpace, fields: string[]): ISpace {
  em.persist(space);
  recordEvent(em, Events.spaceUpdated, {
    space: space.id,
    organization: space.organizationId,
    title: space.title,
    fields,
    ...(space.parentId ? { parent: space.parentId } : {}),
  });
  return space;
}
