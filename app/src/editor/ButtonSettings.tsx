// A button's target in its settings (its label and style are fields of settings.ts): shown, and changed with the
// link dialog, to a web address or a page of the space. A button doing an action (search, ask, select a tab) gets a
// target instead of it.
import type { Editor } from '@tiptap/core';
import { useEffect, useState } from 'react';
import { iconLoads, iconSrc } from '../screens/tree/page-icon.ts';
import { PageIcon } from '../screens/tree/PageIcon.tsx';
import { LinkDialog } from './LinkDialog.tsx';
import { describeRef, type LinkRef } from './links.ts';
import { BUTTON_SIZES, buttonAction, iconNameOf, setBlockData } from './ref-blocks.ts';
import type { Target } from './settings.ts';
import type { PickablePage } from './uploads.ts';

const ACTIONS: Record<string, string> = {
  search: 'opens the search',
  ask: 'opens the assistant',
  select: 'selects a tab',
};

/** The target (GitBook's `ref`) of the button at `pos`; its `action`, if it had one, removed (one undo step). */
export function setButtonTarget(editor: Editor, pos: number, ref: LinkRef): boolean {
  return setBlockData(editor, pos, { ref, action: undefined });
}

interface Props {
  editor: Editor | undefined;
  target: Target;
  pages: PickablePage[] | undefined;
  loadPages(): void;
  onNotice(message: string): void;
}

export function ButtonSettings({ editor, target, pages, loadPages, onNotice }: Props) {
  const [editing, setEditing] = useState(false);
  const data = target.attrs.data ?? {};
  const ref = data.ref as LinkRef | undefined;
  const action = data.action?.action as string | undefined;
  const set = (patch: Record<string, unknown>) => editor && setBlockData(editor, target.pos, patch);
  const sizeId = `block-button-size-${target.pos}`;
  const doesId = `block-button-does-${target.pos}`;
  const textId = `block-button-action-text-${target.pos}`;
  const actionText = String((action === 'select' ? data.action?.slug : data.action?.query) ?? '');
  return (
    <>
      <label htmlFor={sizeId}>
        Size{' '}
        <select
          id={sizeId}
          value={String(data.size ?? '')}
          onChange={(e) => set({ size: e.target.value || undefined })}
        >
          <option value="">default</option>
          {BUTTON_SIZES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <IconField key={target.pos} value={String(data.icon ?? '')} onSet={(icon) => set({ icon })} />
      <label htmlFor={doesId}>
        When clicked{' '}
        <select
          id={doesId}
          value={action ?? 'link'}
          onChange={(e) => {
            const v = e.target.value;
            // a link needs its target: the link dialog chooses it (the action goes then)
            if (v === 'link') setEditing(true);
            else if (v === 'search' || v === 'ask' || v === 'select') {
              set({ action: buttonAction(v, v === 'select' ? '' : actionText), ref: undefined });
              onNotice(`The button ${ACTIONS[v]}.`);
            }
          }}
        >
          <option value="link">goes to its target</option>
          {Object.entries(ACTIONS).map(([k, v]) => (
            <option key={k} value={k}>
              {v}
            </option>
          ))}
        </select>
      </label>
      {(action === 'search' || action === 'ask' || action === 'select') && (
        <label htmlFor={textId}>
          {action === 'select'
            ? 'Option slug '
            : action === 'ask'
              ? 'Question (optional) '
              : 'Search query (optional) '}
          <input
            id={textId}
            value={actionText}
            onChange={(e) => set({ action: buttonAction(action, e.target.value) })}
          />
        </label>
      )}
      <span className="ref-target">
        {ref ? (
          <>
            Links to: <strong>{describeRef(ref)}</strong>
          </>
        ) : (
          <>
            Does: <strong>{(action && ACTIONS[action]) ?? action ?? 'nothing'}</strong>
          </>
        )}
      </span>
      <button type="button" onClick={() => setEditing(true)}>
        {ref ? 'Change target…' : 'Link it instead…'}
      </button>
      {editing && editor && (
        <LinkDialog
          title="Button target"
          current={ref}
          text={String(data.label ?? '')}
          pages={pages}
          loadPages={loadPages}
          onSet={(r) => {
            setEditing(false);
            if (!setButtonTarget(editor, target.pos, r)) return;
            onNotice(`The button "${data.label ?? ''}" links to ${describeRef(r)}.`);
            editor.commands.focus();
          }}
          onClose={() => {
            setEditing(false);
            editor.commands.focus();
          }}
        />
      )}
    </>
  );
}

/**
 * A button's icon: a Font Awesome name (GitBook's `Icon`), written once it is a name and the instance has that icon
 * (its SVG at `/_quire/icons/{name}.svg` loads); emptied, the icon is removed. What is wrong is said beside it.
 */
export function IconField({
  value,
  onSet,
  required,
}: {
  value: string;
  onSet(icon: string | undefined): void;
  /** an icon inline's (GitBook requires it): emptied, the icon stays */
  required?: boolean;
}) {
  const [typed, setTyped] = useState(value);
  const [problem, setProblem] = useState('');
  const id = 'block-icon-name';
  // biome-ignore lint/correctness/useExhaustiveDependencies: checked again when the text typed changes
  useEffect(() => {
    const t = typed.trim();
    if (t === value) return setProblem('');
    if (!t) {
      if (required) return setProblem('An icon needs its name: the icon stays as it was.');
      setProblem('');
      onSet(undefined);
      return;
    }
    const made = iconNameOf(t);
    if ('error' in made) return setProblem(made.error);
    let live = true;
    const timer = setTimeout(() => {
      void iconLoads(iconSrc(made.name)!).then((ok) => {
        if (!live) return;
        if (ok) {
          setProblem('');
          if (made.name !== value) onSet(made.name);
        } else setProblem(`There is no icon named "${made.name}".`);
      });
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [typed]);
  return (
    <>
      <label htmlFor={id}>
        Icon{' '}
        <input
          id={id}
          value={typed}
          placeholder="e.g. book-open"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(e) => setTyped(e.target.value)}
        />
      </label>
      {!problem && <PageIcon icon={value} />}
      {problem && (
        <span id={`${id}-problem`} role="alert">
          {problem}
        </span>
      )}
    </>
  );
}
