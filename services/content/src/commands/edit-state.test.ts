import { describe, expect, it } from 'vitest';
import { assertEditable } from './edit-state.ts';

const refusal = (run: () => void) => {
  try {
    run();
  } catch (err) {
    return { reason: (err as { reason?: string }).reason, message: (err as Error).message };
  }
  return undefined;
};

describe('the edit-state guard', () => {
  it('lets a live space and an open or draft change request change', () => {
    expect(refusal(() => assertEditable({ editMode: 'live' }, { status: 'open' }, { openOnly: true }))).toBeUndefined();
    expect(refusal(() => assertEditable({ editMode: 'live' }, { status: 'draft' }))).toBeUndefined();
    expect(refusal(() => assertEditable({ editMode: 'live' }))).toBeUndefined();
  });

  it('refuses a locked space, a merged change request, an archived one where it must be open, with one 409 each', () => {
    expect(refusal(() => assertEditable({ editMode: 'locked' }, { status: 'open' }))).toEqual({
      reason: 'conflict',
      message: 'The space is locked (editMode `locked`): its content cannot change',
    });
    expect(refusal(() => assertEditable(null, { status: 'merged' }))).toEqual({
      reason: 'conflict',
      message: 'The change request is merged: it can no longer change',
    });
    expect(refusal(() => assertEditable({ editMode: 'live' }, { status: 'archived' }, { openOnly: true }))).toEqual({
      reason: 'conflict',
      message: 'The change request is archived: reopen it to change it',
    });
    // Editing an archived change request's content is allowed (as before): only merge and update need it open.
    expect(refusal(() => assertEditable({ editMode: 'live' }, { status: 'archived' }))).toBeUndefined();
  });
});
