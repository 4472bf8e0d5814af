// Paste of markdown, GitBook's included ({% hint %}, {% tabs %}…): plain text that looks like markdown is read by the
// document package's converter into GitBook blocks, then into the editor's nodes. The converter (remark, micromark)
// is its own chunk, loaded when the editor opens; until it is there, text is pasted as text. HTML on the clipboard
// goes through the schema's parse rules instead.
import { Extension } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { documentToEditor, type EditorNode } from '@quire/document/editor';

type Converter = (markdown: string) => unknown;
let converter: Converter | undefined;

/** Loads the markdown converter (once); the paste handler uses it from then on. */
export async function loadMarkdownConverter(): Promise<Converter> {
  // zod (the document schema the converter checks with) probes `new Function` once to pick its fast path: the app's
  // CSP forbids eval, and the browser reports the probe as a violation even though zod catches it. jitless first.
  const { z } = await import('zod');
  z.config({ jitless: true });
  const m = await import('@quire/document/model');
  converter = m.markdownToDocument;
  return converter;
}

/** Whether pasted plain text reads as markdown (a heading, a list, a quote, a fence, a GitBook tag, a table, marks…). */
export function looksLikeMarkdown(text: string): boolean {
  return (
    /(^|\n) {0,3}(#{1,6} |[-*+] |\d{1,9}[.)] |> |```|~~~|\{% |!\[|\|.*\|\s*(\n|$))/.test(text) ||
    /\*\*[^*\n]+\*\*|__[^_\n]+__|\[[^\]\n]+\]\([^)\s]+\)|`[^`\n]+`/.test(text)
  );
}

/** The editor's nodes of a markdown text (GitBook's markdown), through GitBook's document. */
export function markdownToEditorNodes(markdown: string, convert: Converter): EditorNode[] {
  return (documentToEditor(convert(markdown) as never) as EditorNode).content ?? [];
}

export const MarkdownPaste = Extension.create({
  name: 'markdownPaste',
  addProseMirrorPlugins() {
    const editor = this.editor;
    return [
      new Plugin({
        key: new PluginKey('markdownPaste'),
        props: {
          handlePaste: (view, event) => {
            const data = event.clipboardData;
            if (!data || !converter || data.types.includes('text/html')) return false;
            const text = data.getData('text/plain');
            // in a code block, text stays text
            if (!text || view.state.selection.$from.parent.type.spec.code || !looksLikeMarkdown(text)) return false;
            const nodes = markdownToEditorNodes(text, converter);
            return nodes.length > 0 && editor.commands.insertContent(nodes);
          },
        },
      }),
    ];
  },
});
