// The one place the editor is made: collab passes its own extensions (Y.js) next to the schema's.
import { type AnyExtension, Editor } from '@tiptap/core';
import { documentToEditor, type EditorNode } from '@quire/document/editor';
import { CaretBlock } from './caret-block.ts';
import { CommentMarkers } from './comment-markers.ts';
import { LinkKeys } from './links.ts';
import { loadMarkdownConverter, MarkdownPaste } from './markdown-paste.ts';
import { gitbookExtensions } from './schema.ts';
import { TypedKeys } from './typed-keys.ts';

export interface CreateEditorOptions {
  element: HTMLElement;
  /** GitBook's document to open (omitted when an extension such as collaboration supplies the content). */
  document?: unknown;
  /** Extensions added to the schema's (collaboration, placeholder…). */
  extensions?: AnyExtension[];
  /** false: no undo history of the editor's own (live collaboration brings Y.js' undo). */
  undo?: boolean;
  /** Called after each change of the document. */
  onChange?: (editor: Editor) => void;
  /** Key handling before the editor's own (the `/` menu uses it); true when handled. */
  onKeyDown?: (event: KeyboardEvent) => boolean;
  label?: string;
  /** Files pasted or dropped into the text (at `pos` when dropped); true when taken. */
  onFiles?: (files: File[], pos?: number) => boolean;
}

export function createEditor(options: CreateEditorOptions): Editor {
  // markdown paste reads with the document package's converter: its chunk is fetched now, off the first paint
  void loadMarkdownConverter().catch(() => {});
  const content = options.document ? (documentToEditor(options.document as never) as EditorNode) : undefined;
  // an empty page gets one paragraph to type in
  if (content && !content.content?.length) content.content = [{ type: 'paragraph' }];
  return new Editor({
    element: options.element,
    extensions: [
      ...gitbookExtensions({ undo: options.undo ?? true }),
      MarkdownPaste,
      CaretBlock,
      CommentMarkers,
      TypedKeys,
      LinkKeys,
      ...(options.extensions ?? []),
    ],
    content,
    // the CSP allows no inline <style>: TipTap's CSS is in editor.css
    injectCSS: false,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': options.label ?? 'Page content',
        class: 'editor-content document',
      },
      handleKeyDown: (_view, event) => options.onKeyDown?.(event) ?? false,
      handlePaste: (_view, event) => {
        const files = [...(event.clipboardData?.files ?? [])];
        return files.length > 0 && (options.onFiles?.(files) ?? false);
      },
      handleDrop: (view, event) => {
        const files = [...(event.dataTransfer?.files ?? [])];
        if (!files.length || !options.onFiles) return false;
        const at = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
        return options.onFiles(files, at);
      },
    },
    onUpdate: ({ editor }) => options.onChange?.(editor),
  });
}
