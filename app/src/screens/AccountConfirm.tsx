import { type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * A button that asks before it acts: "Revoke" (named "Revoke token CI" for screen readers) becomes "Confirm revoke
 * token CI" and "Keep". The confirmation takes the focus; "Keep" gives it back to the first button.
 */
export function AskFirst(props: {
  /** What the button shows ("Revoke"). */
  text: ReactNode;
  /** Its accessible name ("Revoke token CI"). */
  label: string;
  /** The confirming button's text ("Confirm revoke token CI"). */
  confirm: string;
  onConfirm(): void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  const sure = useRef<HTMLButtonElement>(null);
  const back = useRef(false);
  useEffect(() => {
    if (asking) sure.current?.focus();
    else if (back.current) {
      back.current = false;
      first.current?.focus();
    }
  }, [asking]);
  return asking ? (
    <span className="confirm">
      <button
        ref={sure}
        type="button"
        className="danger"
        disabled={props.disabled}
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {props.confirm}
      </button>
      <button
        type="button"
        onClick={() => {
          back.current = true;
          setAsking(false);
        }}
      >
        Keep
      </button>
    </span>
  ) : (
    <button
      ref={first}
      type="button"
      aria-label={props.label}
      disabled={props.disabled}
      onClick={() => setAsking(true)}
    >
      {props.text}
    </button>
  );
}
