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

/** The schema names of a specification's entry document (`components.schemas`, OpenAPI 3), in its order. */
export function schemasOf(entry: unknown): string[] {
  const schemas = (entry as { components?: { schemas?: unknown } } | null)?.components?.schemas;
  return schemas && typeof schemas === 'object' && !Array.isArray(schemas) ? Object.keys(schemas) : [];
}

export interface Webhook {
  name: string;
  method: string;
  summary?: string;
}

/** The webhooks of a specification's entry document (`webhooks.{name}.{method}`, OpenAPI 3.1), in its order. */
export function webhooksOf(entry: unknown): Webhook[] {
  const hooks = (entry as { webhooks?: unknown } | null)?.webhooks;
  if (!hooks || typeof hooks !== 'object') return [];
  const out: Webhook[] = [];
  for (const [name, item] of Object.entries(hooks as Record<string, unknown>)) {
    if (!item || typeof item !== 'object') continue;
    for (const method of METHODS) {
      const op = (item as Record<string, unknown>)[method] as { summary?: unknown; operationId?: unknown } | undefined;
      if (!op || typeof op !== 'object') continue;
      const summary = typeof op.summary === 'string' ? op.summary : op.operationId;
      out.push({ name, method, ...(typeof summary === 'string' && summary ? { summary } : {}) });
    }
  }
  return out;
}

/** The value of a webhook in a `<select>`. */
export const webhookKey = (w: { method?: unknown; name?: unknown }): string =>
  w.method && w.name ? `${String(w.method).toLowerCase()} ${String(w.name)}` : '';

// ── Blocks the `/` menu inserts ─────────────────────────────────────────────────────────────────────────────

/** GitBook's `openapi-operation` block showing an operation of the specification `spec`. */
export const openapiOperationNode = (spec: string, op: Operation) => ({
  type: 'openapiOperation',
  attrs: { data: { ref: { kind: 'openapi', spec }, path: op.path, method: op.method }, rest: { isVoid: true } },
});

/**
 * GitBook's `openapi-schemas` block showing the schemas `schemas` of the specification `spec`; grouped is GitBook's
 * default, so only `grouped: false` is written.
 */
export const openapiSchemasNode = (spec: string, schemas: string[], grouped: boolean) => ({
  type: 'openapiSchemas',
  attrs: {
    data: { ref: { kind: 'openapi', spec }, schemas, ...(grouped ? {} : { grouped: false }) },
    rest: { isVoid: true },
  },
});

/** GitBook's `openapi-webhook` block showing the webhook `hook` (its name and method) of the specification `spec`. */
export const openapiWebhookNode = (spec: string, hook: Webhook) => ({
  type: 'openapiWebhook',
  attrs: { data: { ref: { kind: 'openapi', spec }, name: hook.name, method: hook.method }, rest: { isVoid: true } },
});

/** GitBook's `reusable-content` block including the reusable content `id` (of this space). */
export const reusableContentNode = (id: string) => ({
  type: 'reusableContent',
  attrs: { data: { ref: { kind: 'reusable-content', reusableContent: id } }, rest: { isVoid: true } },
});

/** GitBook's `integration` block: the block `block` of the integration `integration`, drawn by it (props `{}`). */
export const integrationBlockNode = (integration: string, block: string) => ({
  type: 'integration',
  attrs: { data: { integration, block, props: {} }, rest: { isVoid: true } },
});

/** GitBook's `button` inline: a label, a style and a target (`ref`). */
export const buttonNode = (label: string, kind: 'primary' | 'secondary', ref: Record<string, unknown>) => ({
  type: 'button',
  attrs: { data: { label, kind, ref }, rest: { isVoid: true } },
});

// ── A button's size, icon and action ────────────────────────────────────────────────────────────────────────

export const BUTTON_SIZES = ['small', 'medium', 'large'] as const;

/**
 * A Font Awesome icon's name as GitBook stores it (`book-open`): trimmed, lowercase, without `fa-` or a style class
 * (`fa-solid fa-book-open`); at most 50 characters (GitBook's `Icon`). An error sentence when it cannot be one.
 */
export function iconNameOf(typed: string): { name: string } | { error: string } {
  const last = typed.trim().toLowerCase().split(/\s+/).pop() ?? '';
  const name = last.startsWith('fa-') ? last.slice(3) : last;
  if (name.length <= 50 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name)) return { name };
  return { error: `"${typed.trim()}" is not an icon name (lowercase words joined by dashes, such as book-open).` };
}

/** GitBook's `DocumentAction` of a button: what it does instead of linking. */
export type ButtonAction =
  | { action: 'search'; query?: string }
  | { action: 'ask'; query?: string }
  | { action: 'select'; slug: string };

/**
 * The action a button does (the choice of the settings' "When clicked" and its text): search or ask with an optional
 * query (emptied, it is left out), select with its slug (required: an empty one is kept as an empty string).
 */
export function buttonAction(kind: 'search' | 'ask' | 'select', text: string): ButtonAction {
  if (kind === 'select') return { action: 'select', slug: text };
  return text ? { action: kind, query: text } : { action: kind };
}
