// Keys typed while the page's content is not in the editor yet (the page being read, the editor's chunk loading, or,
// live, the shared document not synced): kept, then typed into the editor once its content is there. Without this
// they went to the page's body (lost) or, live, into the still empty document, where they merged with the page's
// content as a paragraph of their own.
import type { Editor } from '@tiptap/core';
import { insertTyped } from './typed-keys.ts';

/** The keys kept: printable characters, Enter and Backspace, typed into the editor later as they would have been. */
export class EarlyKeys {
  private keys: string[] = [];
  /** true once the keys went to the editor (or were dropped): from then on the editor takes them itself. */
  done = false;
  /** The writer clicked into the text meanwhile: the keys go where the caret is, not at the end. */
  placed = false;

  /** Keeps the key when it is one to keep; true when kept (the page then stops it). */
  take(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'isComposing'>): boolean {
    if (this.done || e.isComposing || e.ctrlKey || e.metaKey || e.altKey) return false;
    if (e.key.length !== 1 && e.key !== 'Enter' && e.key !== 'Backspace') return false;
    // Backspace after a character kept takes it back
    if (e.key === 'Backspace' && this.keys.at(-1)?.length === 1) this.keys.pop();
    else this.keys.push(e.key);
    return true;
  }

  /** The keys kept, in order. */
  get typed(): readonly string[] {
    return this.keys;
  }

  /**
   * Types what was kept into the editor at the caret the writer placed (else at the end of the page), as
   * typing does (markdown shortcuts, Enter and Backspace through the editor's keys), and stops keeping keys. A
   * read-only editor drops them.
   */
  flush(editor: Editor): void {
    if (this.done) return;
    const keys = this.keys;
    this.done = true;
    this.keys = [];
    if (!keys.length || editor.isDestroyed || !editor.isEditable) return;
    editor.commands.focus(this.placed ? undefined : 'end');
    const { view } = editor;
    for (const key of keys) {
      if (key.length === 1) insertTyped(view, key);
      else {
        const event = new KeyboardEvent('keydown', { key });
        if (view.someProp('handleKeyDown', (f) => f(view, event))) continue;
        // a Backspace in a text the editor's keys leave to the browser: the character before the caret
        const { empty, $from } = view.state.selection;
        if (key === 'Backspace' && empty && $from.parentOffset > 0)
          view.dispatch(view.state.tr.delete($from.pos - 1, $from.pos));
      }
    }
  }
}

/**
 * Listens (before the editor does) for keys typed with nothing focused or the focus in `host` (the editor's box)
 * while `keys` is not done; returns the function that stops listening.
 */
export function keepEarlyKeys(keys: EarlyKeys, host: () => HTMLElement | null): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (keys.done) return;
    const active = document.activeElement;
    if (active && active !== document.body && !host()?.contains(active)) return;
    if (!keys.take(e)) return;
    e.preventDefault();
    e.stopPropagation();
  };
  const onPointer = (e: PointerEvent) => {
    if (!keys.done && host()?.contains(e.target as Node)) keys.placed = true;
  };
  window.addEventListener('keydown', onKey, true);
  window.addEventListener('pointerdown', onPointer, true);
  return () => {
    window.removeEventListener('keydown', onKey, true);
    window.removeEventListener('pointerdown', onPointer, true);
  };
}
