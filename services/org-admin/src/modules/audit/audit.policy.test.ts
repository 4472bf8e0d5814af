import { describe, expect, it } from 'vitest';
import type { Role } from '@quire/contracts';
import { userActor } from '@quire/kit/testing';
import { auditLogPolicy } from './audit.policy.ts';
import { decodeAuditCursor, encodeAuditCursor } from './audit.repository.ts';

const facts = { organizationId: 'o1' };

describe('who reads the audit log', () => {
  it.each([
    ['admin', 'allowed'],
    ['create', 'forbidden'],
    ['review', 'forbidden'],
    ['edit', 'forbidden'],
    ['comment', 'forbidden'],
    ['read', 'forbidden'],
    [null, 'forbidden'],
  ] as [Role | null, string][])('an organization member with role %s: %s', (role, expected) => {
    const actor = userActor('u', [{ organization: 'o1', role }]);
    let outcome = 'allowed';
    try {
      auditLogPolicy.assert(actor, facts, 'read');
    } catch (err) {
      outcome = (err as { reason: string }).reason;
    }
    expect(outcome).toBe(expected);
  });

  it('hides the log from outsiders, whatever their role elsewhere, and from the instance admin token', () => {
    expect(() => auditLogPolicy.assert(userActor('u', [{ organization: 'o2', role: 'admin' }]), facts, 'read')).toThrow(
      /not found/,
    );
    expect(() => auditLogPolicy.assert({ kind: 'instance-admin' }, facts, 'read')).toThrow();
  });
});

describe('audit log cursors', () => {
  it('round-trips the keyset and refuses anything else', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const page = encodeAuditCursor({ occurred_at: new Date('2026-11-25T21:00:00.123Z'), id });
    expect(decodeAuditCursor(page)).toEqual({ occurredAt: '2026-11-25T21:00:00.123Z', id });
    const bad = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const page of [
      '%%%',
      bad(['2026-11-25T21:00:00.123Z']),
      bad(['yesterday', id]),
      bad(['0000-01-01T00:00:00.000Z', id]),
      bad(['2026-11-25T21:00:00.123Z', "1' or 1=1"]),
      bad({ a: 1 }),
    ]) {
      expect(() => decodeAuditCursor(page), page).toThrow(/Invalid `page`/);
    }
  });
});
