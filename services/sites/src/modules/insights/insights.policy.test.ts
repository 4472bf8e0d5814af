import { describe, expect, it } from 'vitest';
import type { Actor } from '@quire/contracts';
import { userActor, outcomeOf } from '@quire/kit/testing';
import { insightsPolicy } from './insights.policy.ts';

const site = { organizationId: 'o1', id: 's1' };
const as = (role: 'admin' | 'create' | 'edit' | 'read' | null) =>
  userActor(`u-${role}`, [{ organization: 'o1', role }]);
const reader = (siteId: string): Actor => ({
  kind: 'reader',
  reader: { site: siteId, organization: 'o1', siteSpaces: [], claims: { unsigned: {} } },
});

describe('insights policy', () => {
  it.each([
    ['admin', as('admin'), 'ok', 'ok'],
    ['create', as('create'), 'ok', 'ok'],
    ['edit', as('edit'), 'ok', 'forbidden'],
    ['read', as('read'), 'ok', 'forbidden'],
    ['guest', as(null), 'not_found', 'not_found'],
    ["the site's reader", reader('s1'), 'ok', 'forbidden'],
    ["another site's reader", reader('s2'), 'not_found', 'not_found'],
  ] as const)('%s: track %s, view the summary %s', (_who, actor, track, view) => {
    expect(outcomeOf(() => insightsPolicy.assert(actor, site, 'track'))).toBe(track);
    expect(outcomeOf(() => insightsPolicy.assert(actor, site, 'view'))).toBe(view);
  });
});
