import { ops, type Actor } from '@quire/contracts';
import type { TestService } from '@quire/kit/testing';
import { insertPage, mergeChanges } from '../search/search.fixtures.ts';

/** A reader (a published-content token) of site `site1` of `organization`, showing `space` as site space `ss1`. */
export const siteReader = (
  organization: string,
  space: string,
  claims: Record<string, unknown> = { unsigned: {} },
): Actor => ({
  kind: 'reader',
  reader: { site: 'site1', organization, siteSpaces: [{ id: 'ss1', space }], claims },
});

/** A page's markdown with a part shown only to visitors whose claims say `plan: "pro"`. */
export const PLANS = `Everyone reads this.

{% if visitor.claims.plan == "pro" %}
Pro secret: platypus.
{% endif %}
`;

type Page = { id: string; documentId?: string };

/**
 * Test helper: a space "Handbook" of `as`'s organization with a page "Plans" (`PLANS`) and a hidden page "Internal",
 * merged; resolves to the space, its revision and the two pages.
 */
export async function plansHandbook(t: TestService, organizationId: string, as: Actor) {
  const space = await t.call(ops.createSpace, { organizationId, title: 'Handbook' }, as);
  const revision = await mergeChanges(
    t,
    space.id,
    [insertPage('Plans', PLANS), insertPage('Internal', 'Wombat plans.', { hidden: true })],
    as,
  );
  const { pages } = await t.call(ops.listPages, { spaceId: space.id }, as);
  const page = (title: string) => pages.find((p) => p.title === title)! as Page;
  return { space: space.id, revision, plans: page('Plans'), internal: page('Internal') };
}
