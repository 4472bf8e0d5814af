// The settings of the blocks that point at something of the organization or the space: an OpenAPI operation block
// (the organization's specification and one of its operations) and a reusable content block (one of the space's
// reusable contents). What they list, and writing the choice into the block's GitBook `data`.
import type { Editor } from '@tiptap/core';
import { closeHistory } from '@tiptap/pm/history';
import { keepSelected } from './settings.ts';

/** The HTTP methods an OpenAPI path item may hold (OpenAPI 3: `paths.{path}.{method}`), in the specification's order. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Operation {
  path: string;
  method: string;
  /** the operation's summary (or its operationId), shown beside it */
  summary?: string;
}

/**
 * The operations of a specification's entry document (its parsed `paths`), in the document's order. A path item
 * that is a `$ref` to another file, or not an object, has no operation listed here.
 */
export function operationsOf(entry: unknown): Operation[] {
  const paths = (entry as { paths?: unknown } | null)?.paths;
  if (!paths || typeof paths !== 'object') return [];
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(paths as Record<string, unknown>)) {
    if (!item || typeof item !== 'object') continue;
    for (const method of METHODS) {
      const op = (item as Record<string, unknown>)[method] as { summary?: unknown; operationId?: unknown } | undefined;
      if (!op || typeof op !== 'object') continue;
      const summary = typeof op.summary === 'string' ? op.summary : op.operationId;
      out.push({ path, method, ...(typeof summary === 'string' && summary ? { summary } : {}) });
    }
  }
  return out;
}

/** The value of an operation in a `<select>` (method and path: a path has no space in it). */
export const operationKey = (o: { method?: unknown; path?: unknown }): string =>
  o.method && o.path ? `${String(o.method).toLowerCase()} ${String(o.path)}` : '';

/**
 * Writes fields of the `data` of the block at `pos` (the others kept), as one undoable step. A field given
 * `undefined` is removed.
 */
export function setBlockData(editor: Editor, pos: number, patch: Record<string, unknown>): boolean {
  const node = editor.state.doc.nodeAt(pos);
  if (!node) return false;
  const data: Record<string, unknown> = { ...(node.attrs.data ?? {}) };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete data[k];
    else data[k] = v;
  }
  const tr = editor.state.tr.setNodeMarkup(pos, undefined, { ...node.attrs, data });
  editor.view.dispatch(closeHistory(keepSelected(editor, pos, tr)));
  return true;
}

/** An OpenAPI operation block showing `spec`'s operation (GitBook's `{ref: {kind: 'openapi', spec}, path, method}`). */
export function setOpenAPIOperation(editor: Editor, pos: number, spec: string, op?: Operation): boolean {
  const node = editor.state.doc.nodeAt(pos);
  if (!node) return false;
  const d = node.attrs.data ?? {};
  return setBlockData(editor, pos, {
    ref: { kind: 'openapi', spec },
    // another specification and no operation chosen yet: the block keeps its path and method (both required)
    path: op?.path ?? d.path ?? '',
    method: op?.method ?? d.method ?? '',
  });
}

/**
 * A reusable content block including `id`. The reference names a space only when it named one before (GitBook's
 * `space` of another space's content); picked from this space's list, it is then this space.
 */
export function setReusableContent(editor: Editor, pos: number, id: string, space: string): boolean {
  const node = editor.state.doc.nodeAt(pos);
  if (!node) return false;
  const had = node.attrs.data?.ref?.space;
  return setBlockData(editor, pos, {
    ref: { kind: 'reusable-content', reusableContent: id, ...(had ? { space } : {}) },
  });
}
