import {
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  useId,
  useState,
} from 'react';
import { Link } from 'wouter';
import type { Space } from '../../api/endpoints.ts';
import { ROLES, type Role } from '../../api/settings.ts';
import type { Tab } from './tabs.ts';

/** The organization's settings tabs (GitBook's `/o/{org}/settings/…` shapes). */
export function SettingsNav({ org, current }: { org: string; current: Tab | 'sites' }) {
  const tabs = [
    ['settings/members', 'Members'],
    ['settings/teams', 'Teams'],
    ['settings/audit', 'Audit log'],
    ['settings/merge-rules', 'Merge rules'],
    ['sites', 'Sites'],
  ] as const;
  return (
    <nav aria-label="Settings" className="settings-nav">
      <Link href={`/o/${org}`}>← Back to the organization</Link>
      <ul>
        {tabs.map(([id, label]) => (
          <li key={id}>
            <Link href={`/o/${org}/${id}`} aria-current={id.endsWith(current) ? 'page' : undefined}>
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

/** A destructive button with a confirmation step ("Remove Ada" → "Confirm remove Ada" or "Keep"). */
export function Confirm(props: { label: string; onConfirm(): void; disabled?: boolean }) {
  const [asking, setAsking] = useState(false);
  const [verb, ...rest] = props.label.split(' ');
  return asking ? (
    <span className="confirm">
      <button
        type="button"
        className="danger"
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
        disabled={props.disabled}
      >
        Confirm {verb?.toLowerCase()} {rest.join(' ')}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Keep
      </button>
    </span>
  ) : (
    <button type="button" onClick={() => setAsking(true)} aria-label={props.label} disabled={props.disabled}>
      {verb}
    </button>
  );
}

/**
 * A form choosing one of the organization's spaces, with a title when `titleLabel` is given: a new site (Sites.tsx),
 * a site's new section or a space added to a site (SiteSections.tsx). `onSubmit` answers true when it is done: the
 * fields are then emptied.
 */
export function SpaceForm(props: {
  /** The form's name ("Create a site"). */
  label: string;
  spaces: Space[] | undefined;
  spaceLabel: string;
  /** The choice of no space: allowed ("None yet") or a prompt ("Choose a space", with `spaceRequired`). */
  noSpace: string;
  spaceRequired?: boolean;
  titleLabel?: string;
  submit: string;
  busy: boolean;
  onSubmit(space: string, title: string): Promise<boolean>;
}) {
  const id = useId();
  const [space, setSpace] = useState('');
  const [title, setTitle] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await props.onSubmit(space, title.trim())) {
      setSpace('');
      setTitle('');
    }
  };
  return (
    <form className="create" onSubmit={submit} aria-label={props.label}>
      {props.titleLabel && (
        <div className="field">
          <label htmlFor={`${id}-title`}>{props.titleLabel}</label>
          <input
            id={`${id}-title`}
            required
            minLength={2}
            maxLength={128}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
          />
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-space`}>{props.spaceLabel}</label>
        <select
          id={`${id}-space`}
          required={props.spaceRequired}
          value={space}
          onChange={(e) => setSpace(e.target.value)}
        >
          <option value="">{props.noSpace}</option>
          {props.spaces?.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" disabled={props.busy}>
        {props.submit}
      </button>
    </form>
  );
}

/** A labelled field: its label (`label`) and one input with the given `id` and attributes. */
export function TextField({
  label,
  ...input
}: { label: ReactNode; id: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="field">
      <label htmlFor={input.id}>{label}</label>
      <input {...input} />
    </div>
  );
}

/** A choice of a `SelectField`: its value and what the option says. */
export type Choice<T extends string> = readonly [value: T, label: string];

/**
 * A labelled select (beside `TextField`): its label (`label`, which may end with words for screen readers only),
 * one `<select>` with the given `id` and attributes, its `options` in order; `onChange` gets the value chosen.
 */
export function SelectField<T extends string>({
  label,
  options,
  value,
  onChange,
  ...select
}: {
  label: ReactNode;
  id: string;
  value: T;
  options: readonly Choice<T>[];
  onChange(value: T): void;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange' | 'children'>) {
  return (
    <div className="field">
      <label htmlFor={select.id}>{label}</label>
      <select {...select} value={value} onChange={(e) => onChange(e.target.value as T)}>
        {options.map(([k, text]) => (
          <option key={k} value={k}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
