import { type FormEvent, useId, useState } from 'react';
import { api, type Space } from '../../api/endpoints.ts';
import { type MergeRules as Config, type OrgMergeRules, settingsApi } from '../../api/settings.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { isUserRule, RuleUsers, USER_RULES, type UserRule, type UserRuleKind } from './UserRules.tsx';

type Rule = Extract<Config, { type: 'rules' }>['rules'][number];

/** The rules without argument that Quire evaluates (the API refuses the others), as GitBook words them. */
const SIMPLE = [
  ['require_at_least_one_review', 'At least one review'],
  ['require_at_least_one_approved_review', 'At least one approving review'],
  ['require_all_reviews_approved', 'Every review approves'],
  ['require_up_to_date_change_request', 'The change request is up to date with the main content'],
  ['require_change_request_subject', 'The change request has a subject'],
  ['require_author_to_merge', 'Only the author merges'],
] as const;
type Simple = (typeof SIMPLE)[number][0];
const isSimple = (r: Rule): r is Rule & { rule: Simple } => SIMPLE.some(([k]) => k === r.rule);

/** A space's merge rules: the organization's (inherit), none, or its own rules. */
export function MergeRules({ space, onChanged }: { space: Space; onChanged(): void }) {
  return (
    <RulesForm
      org={space.organization}
      current={space.mergeRules ?? { type: 'inherit' }}
      save={(config) => settingsApi.setMergeRules(space.id, config)}
      onChanged={onChanged}
    />
  );
}

/** `/o/{org}/settings/merge-rules`: the rules of the spaces that inherit them (`PATCH /orgs/{id}` `mergeRules`). */
export function OrgMergeRulesScreen({ org }: { org: string }) {
  const o = useLoad(() => api.organization(org), `org-merge-rules:${org}`);
  return (
    <>
      <p className="muted">The rules of every space whose merge rules are "the organization's".</p>
      {o.error && <p role="alert">{o.error.message}</p>}
      {o.data && (
        // not keyed by the saved rules: a new key after a save would remount the form and drop "Merge rules saved."
        <RulesForm
          org={org}
          current={o.data.mergeRules ?? { type: 'none' }}
          save={(config) => settingsApi.setOrgMergeRules(org, config as OrgMergeRules)}
          onChanged={o.reload}
          organization
        />
      )}
    </>
  );
}

/** The users each rule naming users names (none for a rule not in the configuration). */
const usersOf = (rules: Rule[]) =>
  Object.fromEntries(
    USER_RULES.map(([k]) => [k, rules.find((r): r is UserRule => r.rule === k)?.users ?? []]),
  ) as Record<UserRuleKind, string[]>;

/** The form: inherit (a space only), none, or the rules Quire evaluates, those naming members with their members. */
function RulesForm(props: {
  org: string;
  current: Config;
  save(config: Config): Promise<unknown>;
  onChanged(): void;
  organization?: boolean;
}) {
  const { current, onChanged } = props;
  const rules = current.type === 'rules' ? current.rules : [];
  const [type, setType] = useState<Config['type']>(current.type);
  const [chosen, setChosen] = useState(
    new Set<string>(rules.filter((r) => isSimple(r) || isUserRule(r)).map((r) => r.rule)),
  );
  const [users, setUsers] = useState(() => usersOf(rules));
  const [done, setDone] = useState('');
  const [invalid, setInvalid] = useState('');
  const members = useLoad(() => settingsApi.members(props.org), `members:${props.org}`);
  const action = useAction();
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone('');
    const empty = USER_RULES.find(([k]) => chosen.has(k) && users[k].length === 0);
    if (type === 'rules' && empty) return setInvalid(`Choose at least one member for "${empty[1]}".`);
    setInvalid('');
    const named = USER_RULES.filter(([k]) => chosen.has(k)).map(([rule]) => ({ rule, users: users[rule] }));
    const config: Config =
      type === 'rules'
        ? { type, rules: [...SIMPLE.filter(([k]) => chosen.has(k)).map(([rule]) => ({ rule })), ...named] }
        : { type };
    if (await action.run(() => props.save(config).then(() => true))) {
      setDone('Merge rules saved.');
      onChanged();
    }
  };
  const toggle = (k: string) => (on: boolean) =>
    setChosen((s) => {
      const n = new Set(s);
      if (on) n.add(k);
      else n.delete(k);
      return n;
    });
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Merge rules</h2>
      <form onSubmit={submit} className="stack" aria-labelledby={`${id}-h`}>
        <fieldset>
          <legend>Before a change request is merged</legend>
          {(
            [
              ['inherit', "Use the organization's rules"],
              ['none', 'No rule: anyone who can merge may merge'],
              ['rules', 'These rules must all be met:'],
            ] as const
          )
            .filter(([k]) => !props.organization || k !== 'inherit')
            .map(([k, label]) => (
              <label key={k} className="check">
                <input type="radio" name={`${id}-type`} value={k} checked={type === k} onChange={() => setType(k)} />
                {label}
              </label>
            ))}
          <div className="nested">
            {SIMPLE.map(([k, label]) => (
              <RuleCheck key={k} label={label} on={chosen.has(k)} disabled={type !== 'rules'} onChange={toggle(k)} />
            ))}
            {USER_RULES.map(([k, label]) => (
              <div key={k}>
                <RuleCheck label={label} on={chosen.has(k)} disabled={type !== 'rules'} onChange={toggle(k)} />
                {chosen.has(k) && (
                  <RuleUsers
                    rule={label}
                    users={users[k]}
                    members={members.data}
                    disabled={type !== 'rules'}
                    onChange={(list) => setUsers((u) => ({ ...u, [k]: list }))}
                  />
                )}
              </div>
            ))}
            {members.error && <p role="alert">The members could not be listed: {members.error.message}</p>}
          </div>
        </fieldset>
        <button type="submit" disabled={action.busy}>
          Save merge rules
        </button>
        <span aria-live="polite">{done}</span>
        {(invalid || action.error) && <p role="alert">{invalid || action.error}</p>}
      </form>
    </section>
  );
}

/** A rule's checkbox, with its label. */
function RuleCheck(props: { label: string; on: boolean; disabled: boolean; onChange(on: boolean): void }) {
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={props.on}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      {props.label}
    </label>
  );
}
