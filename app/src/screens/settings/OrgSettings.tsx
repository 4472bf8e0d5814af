import { Audit } from './Audit.tsx';
import { SettingsNav } from './common.tsx';
import { Members } from './Members.tsx';
import { OrgMergeRulesScreen } from './MergeRules.tsx';
import { Teams } from './Teams.tsx';
import { TITLES, type Tab } from './tabs.ts';

/** `/o/{org}/settings/{tab}`: the organization's settings a lead needs. */
export default function OrgSettings({ org, tab }: { org: string; tab: Tab }) {
  return (
    <section className="settings">
      <SettingsNav org={org} current={tab} />
      <h1>{TITLES[tab]}</h1>
      {tab === 'members' && <Members org={org} />}
      {tab === 'teams' && <Teams org={org} />}
      {tab === 'audit' && <Audit org={org} />}
      {tab === 'merge-rules' && <OrgMergeRulesScreen org={org} />}
    </section>
  );
}
