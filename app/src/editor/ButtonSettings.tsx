// A button's target in its settings (its label and style are fields of settings.ts): shown, and changed with the
// link dialog, to a web address or a page of the space. A button doing an action (search, ask, select a tab) gets a
// target instead of it.
import type { Editor } from '@tiptap/core';
import { useState } from 'react';
import { LinkDialog } from './LinkDialog.tsx';
import { describeRef, type LinkRef } from './links.ts';
import { setBlockData } from './ref-blocks.ts';
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
  return (
    <>
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
        Change target…
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
