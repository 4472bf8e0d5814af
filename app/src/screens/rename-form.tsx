import { type FormEvent, type ReactNode, useState } from 'react';

/** The inline form that renames a row in place: one labelled title field (focused, starting at `initial`), extra
 *  fields, Save (`onSave` gets the title as typed) and, with `onCancel`, Cancel. */
export function RenameForm(props: {
  label: string;
  initial: string;
  maxLength: number;
  onSave(title: string): void;
  onCancel?: () => void;
  children?: ReactNode;
}) {
  const [title, setTitle] = useState(props.initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSave(title);
  };
  return (
    <form onSubmit={submit} className="inline">
      <label>
        <span className="sr-only">{props.label}</span>
        <input
          value={title}
          onChange={(e) => setTitle(e.target.value)}
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
