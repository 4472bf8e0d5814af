import { useId, useState } from 'react';
import type { Member, MergeRules } from '../../api/settings.ts';

type Rule = Extract<MergeRules, { type: 'rules' }>['rules'][number];
/** The rules that name users (1 to 50 of them, in the API's limits). */
export type UserRule = Extract<Rule, { users: string[] }>;
export type UserRuleKind = UserRule['rule'];

/** The rules naming users, as GitBook words them. */
export const USER_RULES: readonly (readonly [UserRuleKind, string])[] = [
  ['require_specific_reviewers', 'Every one of these members approves'],
  ['require_one_of_specific_reviewers', 'At least one of these members approves'],
  ['allow_bypass', 'These members may merge even when the rules are not met'],
];
export const isUserRule = (r: Rule): r is UserRule => USER_RULES.some(([k]) => k === r.rule);

/** A member's name; a user who is no longer a member (or before the members are loaded) shows as their id. */
const nameOf = (members: Member[] | undefined, user: string) => {
  if (!members) return user;
  const m = members.find((x) => x.user.id === user);
  return m ? m.user.displayName : `User ${user} (not a member)`;
};

/**
 * The members a rule names: each listed with a button removing them, and a picker adding a member of the
 * organization (searched by name or e-mail). `disabled` while the rule is not chosen.
 */
export function RuleUsers(props: {
  rule: string;
  users: string[];
  members: Member[] | undefined;
  disabled: boolean;
  onChange(users: string[]): void;
}) {
  const { users, members, rule } = props;
  return (
    <div className="nested">
      {users.length === 0 ? (
        <p className="muted">No member chosen yet.</p>
      ) : (
        <ul className="settings-list" aria-label={`Members: ${rule}`}>
          {users.map((u) => (
            <li key={u}>
              <span className="who">{nameOf(members, u)}</span>
              <button
                type="button"
                disabled={props.disabled}
                aria-label={`Remove ${nameOf(members, u)} from "${rule}"`}
                onClick={() => props.onChange(users.filter((x) => x !== u))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <MemberPicker
        rule={rule}
        members={members?.filter((m) => !users.includes(m.user.id))}
        disabled={props.disabled}
        onPick={(u) => props.onChange([...users, u])}
      />
    </div>
  );
}

/** A searchable select of members: a search field narrowing the select's options by name or e-mail, and "Add". */
function MemberPicker(props: {
  rule: string;
  members: Member[] | undefined;
  disabled: boolean;
  onPick(user: string): void;
}) {
  const id = useId();
  const [query, setQuery] = useState('');
  const [user, setUser] = useState('');
  const q = query.trim().toLowerCase();
  const found = (props.members ?? []).filter(
    (m) => !q || m.user.displayName.toLowerCase().includes(q) || (m.user.email ?? '').toLowerCase().includes(q),
  );
  // The first match is chosen when the one chosen is filtered out: typing a name then "Add" is enough.
  const chosen = found.some((m) => m.user.id === user) ? user : (found[0]?.user.id ?? '');
  const add = (e: { preventDefault(): void }) => {
    e.preventDefault();
    if (!chosen) return;
    props.onPick(chosen);
    setQuery('');
    setUser('');
  };
  return (
    <div className="create">
      <div className="field">
        <label htmlFor={`${id}-q`}>
          Search members<span className="sr-only"> for "{props.rule}"</span>
        </label>
        <input
          id={`${id}-q`}
          type="search"
          value={query}
          disabled={props.disabled}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && add(e)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-m`}>
          Member<span className="sr-only"> to add to "{props.rule}"</span>
        </label>
        <select id={`${id}-m`} value={chosen} disabled={props.disabled} onChange={(e) => setUser(e.target.value)}>
          {found.length === 0 && <option value="">{props.members ? 'No member matches' : 'Loading members…'}</option>}
          {found.map((m) => (
            <option key={m.user.id} value={m.user.id}>
              {m.user.displayName}
              {m.user.email ? ` (${m.user.email})` : ''}
            </option>
          ))}
        </select>
      </div>
      <button type="button" disabled={props.disabled || !chosen} onClick={add}>
        Add<span className="sr-only"> to "{props.rule}"</span>
      </button>
    </div>
  );
}
