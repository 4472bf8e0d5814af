import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { changesApi, type ReactionChange } from '../../api/changes.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { REACTION_CHOICES, type Reaction, reactedBy, reactionLabel, toggleBody, whoReacted } from './reactions.ts';

/**
 * The reactions of a comment or reply: one toggle per emoji ("👍 2, you reacted", pressed when the caller reacted
 * with it) and "Add reaction", a menu of emojis. Each change is one `PUT` of the comment or reply
 * (`addedReactions` / `removedReactions`), then `onDone` reloads it. Without the right to react (`permissions.reply`)
 * the reactions are only shown.
 */
export function Reactions(props: {
  reactions: Reaction[];
  /** May the caller react (the comment's or reply's `permissions.reply`). */
  canReact: boolean;
  /** "comment of Ann", "reply of Bob": what the menu's button names. */
  of: string;
  react(change: ReactionChange): Promise<unknown>;
  onDone(): void;
}) {
  const { reactions, canReact } = props;
  const me = useLoad(() => changesApi.meOnce(), 'me').data?.id;
  const action = useAction();
  const toggle = async (emoji: string) => {
    const mine = reactions.some((r) => r.emoji === emoji && reactedBy(r, me));
    if (await action.run(() => props.react(toggleBody(emoji, mine)))) props.onDone();
  };
  if (!canReact && reactions.length === 0) return null;
  return (
    <div className="cr-reactions">
      {reactions.length > 0 && (
        <ul aria-label="Reactions">
          {reactions.map((r) => (
            <li key={r.emoji}>
              {canReact ? (
                <button
                  type="button"
                  className="cr-reaction"
                  aria-pressed={reactedBy(r, me)}
                  aria-label={reactionLabel(r, me)}
                  title={whoReacted(r, me)}
                  disabled={action.busy || me === undefined}
                  onClick={() => toggle(r.emoji)}
                >
                  {r.emoji} {r.count}
                </button>
              ) : (
                <span className="cr-reaction" title={whoReacted(r, me)}>
                  <span aria-hidden="true">
                    {r.emoji} {r.count}
                  </span>
                  <span className="sr-only">{`${reactionLabel(r, me)}: ${whoReacted(r, me)}`}</span>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {canReact && me !== undefined && (
        <ReactionMenu
          of={props.of}
          mine={new Set(reactions.filter((r) => reactedBy(r, me)).map((r) => r.emoji))}
          busy={action.busy}
          onPick={toggle}
        />
      )}
      {action.error && <p role="alert">{action.error}</p>}
    </div>
  );
}

/**
 * "Add reaction": a menu button (WAI-ARIA's menu button pattern). Opened, the focus is on the first emoji; the arrows,
 * Home and End move it, Enter or Space picks (adds, or takes away an emoji already mine: checked), Escape and Tab
 * close it, the focus going back to the button.
 */
function ReactionMenu(props: { of: string; mine: ReadonlySet<string>; busy: boolean; onPick(emoji: string): void }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitemcheckbox"]') ?? [])];
  // opened: the focus on the first emoji
  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role="menuitemcheckbox"]')?.focus();
  }, [open]);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const onKey = (e: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => all[(i + all.length) % all.length]?.focus();
    if (e.key === 'ArrowDown' || e.key === 'ArrowRight') go(at + 1);
    else if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') go(at - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(all.length - 1);
    else if (e.key === 'Escape') close(true);
    else if (e.key === 'Tab') return close(false);
    else return;
    e.preventDefault();
  };
  return (
    <span className="cr-react-menu">
      <button
        type="button"
        ref={button}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={`Add reaction to the ${props.of}`}
        title="Add reaction"
        disabled={props.busy}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        <span aria-hidden="true">☺+</span>
      </button>
      {open && (
        <div
          id={id}
          ref={menu}
          role="menu"
          aria-label={`Reactions to the ${props.of}`}
          className="cr-react-choices"
          tabIndex={-1}
          onKeyDown={onKey}
          onBlur={(e) => {
            // the focus left the menu (a click elsewhere): it closes
            if (!e.currentTarget.contains(e.relatedTarget as Node | null) && e.relatedTarget !== button.current)
              setOpen(false);
          }}
        >
          {REACTION_CHOICES.map((c) => (
            <button
              type="button"
              key={c.emoji}
              role="menuitemcheckbox"
              aria-checked={props.mine.has(c.emoji)}
              aria-label={`${c.emoji} ${c.name}`}
              title={c.name}
              tabIndex={-1}
              onClick={() => {
                close(true);
                props.onPick(c.emoji);
              }}
            >
              <span aria-hidden="true">{c.emoji}</span>
            </button>
          ))}
        </div>
      )}
    </span>
  );
}
