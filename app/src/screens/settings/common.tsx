import { Link } from 'wouter';
import { ROLES, type Role } from '../../api/settings.ts';
import type { Tab } from './tabs.ts';

/** The organization's settings tabs (GitBook's `/o/{org}/settings/…` shapes). */
export function SettingsNav({ org, current }: { org: string; current: Tab }) {
  const tabs = [
    ['members', 'Members'],
    ['teams', 'Teams'],
    ['audit', 'Audit log'],
  ] as const;
  return (
    <nav aria-label="Settings" className="settings-nav">
      <Link href={`/o/${org}`}>← Back to the organization</Link>
      <ul>
        {tabs.map(([id, label]) => (
          <li key={id}>
            <Link href={`/o/${org}/settings/${id}`} aria-current={id === current ? 'page' : undefined}>
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A role picker: the API's roles, and (when `guest`) "Guest" for no organization role (null). */
export function RoleSelect(props: {
  label: string;
  value: Role | null;
  onChange(role: Role | null): void;
  guest?: boolean;
  disabled?: boolean;
  id?: string;
}) {
  return (
    <select
      id={props.id}
      aria-label={props.id ? undefined : props.label}
      value={props.value ?? ''}
      disabled={props.disabled}
      onChange={(e) => props.onChange((e.target.value || null) as Role | null)}
    >
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {roleLabel(r)}
        </option>
      ))}
      {props.guest && <option value="">Guest (no role)</option>}
    </select>
  );
}

export const roleLabel = (r: Role | null) => (r ? r[0]?.toUpperCase() + r.slice(1) : 'Guest');

/** A destructive button with a confirmation step ("Remove Ada" → "Confirm remove Ada" / "Keep"). */
export function Confirm(props: { label: string; onConfirm(): void; disabled?: boolean }) {
  return (
    <details className="confirm">
      <summary aria-label={props.label}>{props.label.split(' ')[0]}</summary>
      <button type="button" className="danger" onClick={props.onConfirm} disabled={props.disabled}>
        Confirm {props.label[0]?.toLowerCase()}
        {props.label.slice(1)}
      </button>
    </details>
  );
}
