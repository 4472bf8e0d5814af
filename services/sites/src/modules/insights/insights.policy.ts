import { definePolicy } from '@quire/kit';
import { readerOrMemberLevel } from '../sites/site.policy.ts';

/**
 * The insights of a site: a reader of the site (the published-content token its renderer holds) and its members
 * report events; members who can manage the site read the summary (what visitors searched is the site owner's).
 */
export const insightsPolicy = definePolicy({
  resource: 'Site',
  role: readerOrMemberLevel,
  actions: {
    /** Report events (`trackEventsInSiteById`). */
    track: 'read',
    /** Read the summary of the events. */
    view: 'create',
  },
  describe: { view: 'Reading the insights of the site' },
});
export type InsightsAction = keyof typeof insightsPolicy.actions;
