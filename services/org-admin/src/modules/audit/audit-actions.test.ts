import { describe, expect, it } from 'vitest';
import { ALL_OPERATIONS, type EventEnvelope, ops } from '@quire/contracts';
import { auditActionOf, auditRecordOf, GITBOOK_ACTIONS, isAudited } from '@quire/kit';
import { AUDIT_ACTIONS } from './audit.router.ts';

const audited = ALL_OPERATIONS.filter(isAudited);
/** GitBook's action ids: lower-case dotted words, the last one a past participle (`organization.team.member-added`). */
const GITBOOK_ID = /^[a-z]+(?:-[a-z]+)*(?:\.[a-z]+(?:-[a-z]+)*)*\.[a-z]+(?:-[a-z]+)*ed$/;
/** Quire's own: the operation id, `<noun>.<verb>[Qualifier]` (`spaces.create`, `teams.updateMembers`). */
const QUIRE_ID = /^[a-z][a-zA-Z]*\.[a-z][a-zA-Z]*$/;
const event = (type: string): EventEnvelope => ({ id: 'e', type, occurredAt: new Date().toISOString(), data: {} });

describe('audit actions', () => {
  it('maps only audited operations, to GitBook-shaped ids with labels', () => {
    const ids = new Set(audited.map((op) => op.id));
    for (const [opId, actions] of Object.entries(GITBOOK_ACTIONS)) {
      expect(ids.has(opId), opId).toBe(true);
      expect(actions.length, opId).toBeGreaterThan(0);
      for (const a of actions) {
        expect(a.id, opId).toMatch(GITBOOK_ID);
        expect(a.label, opId).toMatch(/^[A-Z][a-z]+ .+/);
      }
      // Only the last of several may go without an event: it is the fallback.
      expect(
        actions.slice(0, -1).every((a) => a.event !== undefined),
        opId,
      ).toBe(true);
    }
  });

  it('lists every action once: GitBook names for the mapped operations, the operation id for the rest', () => {
    const listed = AUDIT_ACTIONS.map((a) => a.id);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).toEqual([...listed].sort((a, b) => a.localeCompare(b)));
    for (const op of audited) {
      const mapped = GITBOOK_ACTIONS[op.id];
      if (mapped) {
        for (const a of mapped)
          expect(AUDIT_ACTIONS).toContainEqual({ object: 'audit-event-action', id: a.id, label: a.label });
        expect(listed).not.toContain(op.id);
      } else {
        expect(op.id).toMatch(QUIRE_ID);
        expect(op.id).not.toMatch(GITBOOK_ID);
        expect(AUDIT_ACTIONS).toContainEqual({ object: 'audit-event-action', id: op.id, label: op.http!.summary });
      }
    }
    for (const a of AUDIT_ACTIONS) expect(a.label.length, a.id).toBeGreaterThan(0);
    // Reads are never actions.
    expect(listed).not.toContain(ops.getSpaceById.id);
    expect(listed).not.toContain(ops.listOrganizationAuditEvents.id);
  });

  it('names the GitBook actions of the changes GitBook lists', () => {
    expect(auditActionOf(ops.updateOrganizationById).id).toBe('organization.settings.updated');
    expect(auditActionOf(ops.createOrganizationTeam).id).toBe('organization.team.created');
    expect(auditActionOf(ops.removeTeamFromOrganizationById).id).toBe('organization.team.deleted');
    expect(auditActionOf(ops.deleteMemberFromOrganizationTeamById).id).toBe('organization.team.member-removed');
    expect(auditActionOf(ops.createSiteRedirect).id).toBe('site.redirect.created');
    // Quire-only changes keep the operation id.
    expect(auditActionOf(ops.createSpace)).toEqual({ id: 'spaces.create', label: ops.createSpace.http!.summary });
    expect(auditActionOf(ops.updateMembersInOrganizationTeam).id).toBe('teams.updateMembers');
  });

  it('tells adding a team member from changing their role by what the call recorded', () => {
    const op = ops.addMemberToOrganizationTeamById;
    const input = { organizationId: 'o1', teamId: 't1', userId: 'u2', role: 'owner' };
    const call = { actor: { kind: 'user' as const, userId: 'u1', memberships: [] }, requestId: 'r' };
    expect(auditRecordOf(op, input, undefined, call, [event('team.member-added')]).action).toBe(
      'organization.team.member-added',
    );
    expect(auditRecordOf(op, input, undefined, call, [event('team.member-role-changed')]).action).toBe(
      'organization.team.member-updated',
    );
    // Nothing changed (already a member with that role): still an update of the member.
    expect(auditRecordOf(op, input, undefined, call, []).action).toBe('organization.team.member-updated');
  });
});
