import type { FormEvent, ReactNode } from 'react';

/** The inline form that renames a row in place: one labelled title field (focused), extra fields, Save and, with
 *  `onCancel`, Cancel. */
export function RenameForm(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  maxLength: number;
  onSubmit(e: FormEvent): void;
  onCancel?: () => void;
  children?: ReactNode;
}) {
  return (
    <form onSubmit={props.onSubmit} className="inline">
      <label>
        <span className="sr-only">{props.label}</span>
        <input
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          // biome-ignore lint/a11y/noAutofocus: the field the user just asked for
          autoFocus
          maxLength={props.maxLength}
        />
      </label>
      {props.children}
      <button type="submit">Save</button>
      {props.onCancel && (
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      )}
    </form>
  );
}
