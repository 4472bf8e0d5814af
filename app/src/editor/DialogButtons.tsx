import type { ReactNode } from 'react';

/**
 * The buttons at the foot of an editor dialog's form: its submit button (`submit`, disabled by `disabled`), the
 * dialog's other buttons (`children`), then Cancel.
 */
export function DialogButtons(props: { submit: string; disabled?: boolean; onCancel(): void; children?: ReactNode }) {
  return (
    <div className="dialog-buttons">
      <button type="submit" disabled={props.disabled}>
        {props.submit}
      </button>
      {props.children}
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </div>
  );
}
