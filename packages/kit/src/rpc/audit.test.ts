import { describe, expect, it } from 'vitest';
import { AuditRecordSchema, ops, type EventEnvelope } from '@quire/contracts';
import {
  auditActionOf,
  auditRecordOf,
  clientInfo,
  isAudited,
  placeInOrganization,
  targetTypeOfParam,
} from './audit.ts';

const user = { kind: 'user' as const, userId: 'u1', memberships: [], tokenId: 'tok1' };
const event = (type: string, data: Record<string, unknown>): EventEnvelope => ({
  id: 'e',
  type,
  occurredAt: new Date().toISOString(),
  data,
});

describe('audit records', () => {
  it('audits the mutations of the API only', () => {
    expect(isAudited(ops.createSpace)).toBe(true);
    expect(isAudited(ops.deleteSpaceById)).toBe(true);
    expect(isAudited(ops.getSpaceById)).toBe(false);
    expect(isAudited(ops.listOrganizationAuditEvents)).toBe(false);
    // Internal mutations (a token's last use) are not changes a user made through the API.
    expect(isAudited(ops.resolveToken)).toBe(false);
  });

  it("uses GitBook's action ids where GitBook has the same change, the operation id elsewhere", () => {
    expect(
      auditRecordOf(
        ops.createOrganizationTeam,
        { organizationId: 'o1', title: 'T' },
        undefined,
        { actor: user, requestId: 'r' },
        [],
      ).action,
    ).toBe('organization.team.created');
    expect(auditActionOf(ops.updateOrganizationById)).toEqual({
      id: 'organization.settings.updated',
      label: 'Updated organization settings',
    });
    expect(auditActionOf(ops.createSpace)).toEqual({ id: 'spaces.create', label: ops.createSpace.http!.summary });
  });

  it('names target types after path parameters', () => {
    expect(targetTypeOfParam('spaceId')).toBe('space');
    expect(targetTypeOfParam('changeRequestId')).toBe('change-request');
    expect(targetTypeOfParam('integrationName')).toBe('integration');
    expect(targetTypeOfParam('specSlug')).toBe('spec');
  });

  it('targets the created resource, keeps the caller, the token, the request and the client', () => {
    const out = { object: 'space', id: 's1', title: 'Docs', organization: 'o1' };
    const r = auditRecordOf(
      ops.createSpace,
      { organizationId: 'o1', title: 'Docs', parent: 'c1' },
      out,
      { actor: user, requestId: 'req-1', client: { ip: '203.0.113.9', userAgent: 'curl/8' } },
      [event('space.created', { space: 's1', organization: 'o1' })],
    );
    expect(AuditRecordSchema.parse(r)).toEqual(r);
    expect(r).toMatchObject({
      organization: 'o1',
      action: 'spaces.create',
      service: 'content',
      operationId: 'createSpace',
      actor: { type: 'user', id: 'u1', tokenId: 'tok1' },
      target: { type: 'space', id: 's1', label: 'Docs' },
      requestId: 'req-1',
      ip: '203.0.113.9',
      userAgent: 'curl/8',
      events: ['space.created'],
    });
    expect(r.targets.map((t) => t.id)).toEqual(['s1', 'o1']);
    // Names of the fields sent, never their values.
    expect(r.fields).toEqual(['title', 'parent']);
    expect(JSON.stringify(r)).not.toContain('"Docs","parent"');
  });

  it('targets the last path parameter of a change with no body, and finds its organization in its events', () => {
    const r = auditRecordOf(
      ops.deleteCommentInSpace,
      { spaceId: 's1', commentId: 'c9' },
      undefined,
      { actor: user, requestId: '' },
      [event('comment.deleted', { space: 's1', organization: 'o1', comment: 'c9' })],
    );
    expect(r.organization).toBe('o1');
    expect(r.target).toEqual({ type: 'comment', id: 'c9' });
    expect(r.targets.map((t) => `${t.type}:${t.id}`)).toEqual(['comment:c9', 'space:s1', 'organization:o1']);
    expect(r.requestId).toBeUndefined();
  });

  it('files a transfer under the organization it left, naming both', () => {
    const r = auditRecordOf(
      ops.transferSpace,
      { spaceId: 's1', organization: 'o2' },
      { object: 'space', id: 's1', organization: 'o2' },
      { actor: user, requestId: 'r' },
      [event('space.transferred', { space: 's1', organization: 'o2', previousOrganization: 'o1' })],
    );
    expect(r.organization).toBe('o1');
    expect(r.targets.map((t) => t.id)).toEqual(['s1', 'o1', 'o2']);
  });

  it('records a change outside any organization against the caller, and the instance admin as the system', () => {
    const own = auditRecordOf(ops.revokeApiToken, { tokenId: 't2' }, undefined, { actor: user, requestId: 'r' }, []);
    expect(own).toMatchObject({ organization: null, target: { type: 'token', id: 't2' } });
    const admin = auditRecordOf(
      ops.bootstrapInstance,
      { title: 'Acme', email: 'a@b.c' },
      {},
      { actor: { kind: 'instance-admin' }, requestId: 'r' },
      [event('organization.created', { organization: 'o7', title: 'Acme' })],
    );
    expect(admin).toMatchObject({
      organization: 'o7',
      actor: { type: 'system', id: 'instance-admin' },
      target: { type: 'organization', id: 'o7' },
    });
  });

  it('files a record its service placed under the organization it found', () => {
    const r = auditRecordOf(
      ops.removeRequestedReviewerFromChangeRequest,
      { spaceId: 's1', changeRequestId: 'cr1', userId: 'u9' },
      undefined,
      { actor: user, requestId: 'r' },
      [],
    );
    expect(r.organization).toBeNull();
    placeInOrganization(r, 'o1');
    expect(r.organization).toBe('o1');
    expect(r.targets.map((t) => `${t.type}:${t.id}`)).toEqual([
      'user:u9',
      'change-request:cr1',
      'space:s1',
      'organization:o1',
    ]);
    placeInOrganization(r, null);
    expect(r.organization).toBe('o1');
  });

  it('cuts what it keeps to the record limits, so recording never fails a mutation', () => {
    const long = 'x'.repeat(5_000);
    const input = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}Id`, `v${i}`]));
    const r = auditRecordOf(
      ops.updateSpaceById,
      { ...input, spaceId: long },
      { object: 'space', id: long, title: long },
      { actor: user, requestId: 'r', client: clientInfo(long, long) },
      [],
    );
    expect(AuditRecordSchema.safeParse(r).success).toBe(true);
    expect(r.targets).toHaveLength(50);
    expect(r.userAgent).toHaveLength(512);
    expect(clientInfo(undefined, '')).toEqual({});
  });
});
