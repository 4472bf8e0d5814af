import * as Y from 'yjs';
import { yXmlFragmentToProsemirrorJSON } from 'y-prosemirror';

/** A ProseMirror (TipTap) document as JSON: `{ type: 'doc', content: [...] }`. */
export interface EditorNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: EditorNode[];
  text?: string;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
}

/** A page's document in GitBook's JSON form (`{ object: 'document', data, nodes }`), the canonical one. */
export type GitBookDocument = Record<string, unknown>;

/**
 * GitBook document ⇄ editor JSON: the app editor's conversion (`app/src/editor/`), injected so the server and the
 * browser map documents the same way.
 */
export interface EditorConversion {
  documentToEditor(doc: GitBookDocument): EditorNode;
  editorToDocument(json: EditorNode): GitBookDocument;
}

/** The Y.XmlFragment TipTap's Collaboration extension binds the editor to (its `field`). */
export const COLLAB_FIELD = 'default';

/**
 * The attributes of the document's root node (GitBook's document `data`: front matter…): a Y.XmlFragment has no
 * attributes of its own, so the server keeps them in this map of the same Y.Doc (the editor does not change them).
 */
export const ROOT_ATTRS = 'documentAttrs';

/** The editor JSON a Y.Doc holds (y-prosemirror's reading, with no schema needed), its root attributes included. */
export function yDocToEditor(ydoc: Y.Doc): EditorNode {
  const json = yXmlFragmentToProsemirrorJSON(ydoc.getXmlFragment(COLLAB_FIELD)) as EditorNode;
  const attrs = ydoc.getMap(ROOT_ATTRS).toJSON();
  return Object.keys(attrs).length ? { ...json, attrs } : json;
}

/**
 * Replaces the content of a Y.Doc's fragment with `json`, written as y-prosemirror writes a ProseMirror document
 * (an element per node with its non-null attributes, one Y.XmlText per run of text nodes, a mark as a formatting
 * attribute named after its type holding its attributes) and its root attributes, in one transaction of `origin`.
 */
export function replaceYDocContent(ydoc: Y.Doc, json: EditorNode, origin: unknown): void {
  const fragment = ydoc.getXmlFragment(COLLAB_FIELD);
  const root = ydoc.getMap(ROOT_ATTRS);
  ydoc.transact(() => {
    if (fragment.length) fragment.delete(0, fragment.length);
    fragment.insert(0, yNodesOf(json.content ?? []));
    root.clear();
    for (const [key, value] of Object.entries(json.attrs ?? {}))
      if (value !== null && value !== undefined) root.set(key, value);
  }, origin);
}

function yNodesOf(nodes: EditorNode[]): (Y.XmlElement | Y.XmlText)[] {
  const out: (Y.XmlElement | Y.XmlText)[] = [];
  let run: EditorNode[] = [];
  const flush = () => {
    if (run.length) out.push(yTextOf(run));
    run = [];
  };
  for (const node of nodes) {
    if (node.type === 'text') run.push(node);
    else {
      flush();
      out.push(yElementOf(node));
    }
  }
  flush();
  return out;
}

function yElementOf(node: EditorNode): Y.XmlElement {
  const el = new Y.XmlElement(node.type);
  for (const [key, value] of Object.entries(node.attrs ?? {}))
    if (value !== null && value !== undefined) el.setAttribute(key, value as string);
  el.insert(0, yNodesOf(node.content ?? []));
  return el;
}

function yTextOf(nodes: EditorNode[]): Y.XmlText {
  const text = new Y.XmlText();
  text.applyDelta(
    nodes
      .filter((n) => n.text)
      .map((n) => ({
        insert: n.text!,
        ...(n.marks?.length ? { attributes: Object.fromEntries(n.marks.map((m) => [m.type, m.attrs ?? {}])) } : {}),
      })),
  );
  return text;
}
