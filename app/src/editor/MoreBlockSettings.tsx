// The settings of the blocks GitBook's editor sets beyond plain fields (those are in settings.ts): a drawing's file
// replaced; an integration block's integration and block shown, its props edited as JSON; an OpenAPI schemas block's
// specification and schemas; an OpenAPI webhook block's specification and webhook; the older OpenAPI block's
// (`swagger`) source, a URL or a file. Every choice is written into the block's GitBook `data` (its other fields and
// its key kept), one undo step each.
import type { Editor } from '@tiptap/core';
import { useState } from 'react';
import { IconField } from './ButtonSettings.tsx';
import { urlOf } from './links.ts';
import { setBlockData, schemasOf, webhookKey, webhooksOf } from './ref-blocks.ts';
import { SpecSelect, useSpecEntry, useSpecs } from './RefBlockSettings.tsx';
import type { Target } from './settings.ts';
import { fileNames } from './uploads.ts';
import './more-blocks.css';

interface Props {
  editor: Editor | undefined;
  space: string;
  target: Target;
  onNotice(message: string): void;
  /** Opens the file chooser; the file uploaded becomes the block's `ref` (`{kind: 'file', file}`). */
  onReplaceFile(accept: string): void;
}

export function MoreBlockSettings(props: Props) {
  switch (props.target.type) {
    case 'drawing':
      return <DrawingSettings {...props} />;
    case 'integration':
      return <IntegrationSettings key={props.target.pos} {...props} />;
    case 'swagger':
      return <SwaggerSettings key={props.target.pos} {...props} />;
    case 'openapiSchemas':
      return <SchemasSettings {...props} />;
    case 'openapiWebhook':
      return <WebhookSettings {...props} />;
    case 'icon':
      return (
        <IconField
          key={props.target.pos}
          required
          value={String(props.target.attrs.data?.icon ?? '')}
          onSet={(icon) => icon && props.editor && setBlockData(props.editor, props.target.pos, { icon })}
        />
      );
    default:
      return null;
  }
}

/** What a file reference names: its file's name when the editor knows it, else its id. */
const fileLabel = (ref: { kind?: string; file?: string; url?: string } | undefined): string =>
  ref?.kind === 'file'
    ? (fileNames.get(String(ref.file)) ?? String(ref.file))
    : ref?.kind === 'url'
      ? String(ref.url)
      : '';

function DrawingSettings({ target, onReplaceFile }: Props) {
  const ref = target.attrs.data?.ref;
  return (
    <>
      <span className="ref-target">
        File: <strong>{fileLabel(ref) || 'none'}</strong>
      </span>
      <button type="button" onClick={() => onReplaceFile('image/*')}>
        Replace file…
      </button>
    </>
  );
}

/** The integration and block are shown (the integration draws the block); its props are JSON, written when valid. */
function IntegrationSettings({ editor, target, onNotice }: Props) {
  const data = target.attrs.data ?? {};
  const [text, setText] = useState(() => JSON.stringify(data.props ?? {}, null, 2));
  const [problem, setProblem] = useState('');
  const id = `block-integration-props-${target.pos}`;
  return (
    <>
      <span className="ref-target">
        Integration: <strong>{String(data.integration ?? '')}</strong> · Block:{' '}
        <strong>{String(data.block ?? '')}</strong>
      </span>
      {typeof data.url === 'string' && data.url && (
        <span className="ref-target">
          URL: <strong>{data.url}</strong>
        </span>
      )}
      <label htmlFor={id} className="props-field">
        Props (JSON){' '}
        <textarea
          id={id}
          rows={4}
          spellCheck={false}
          value={text}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            let props: unknown;
            try {
              props = JSON.parse(e.target.value);
            } catch {
              return setProblem('Not JSON yet: the block keeps its last props.');
            }
            if (!props || typeof props !== 'object' || Array.isArray(props))
              return setProblem('The props are an object ({ … }): the block keeps its last props.');
            setProblem('');
            if (editor && setBlockData(editor, target.pos, { props })) onNotice('Props saved.');
          }}
        />
      </label>
      {problem && (
        <span id={`${id}-problem`} role="alert">
          {problem}
        </span>
      )}
    </>
  );
}

/** The older OpenAPI block: its specification from a URL (typed) or a file (uploaded). */
function SwaggerSettings({ editor, target, onNotice, onReplaceFile }: Props) {
  const ref = target.attrs.data?.ref as { kind?: string; url?: string; file?: string } | undefined;
  const [url, setUrl] = useState(ref?.kind === 'url' ? String(ref.url ?? '') : '');
  const [problem, setProblem] = useState('');
  const id = `block-swagger-url-${target.pos}`;
  return (
    <>
      <span className="ref-target">
        Specification: <strong>{fileLabel(ref) || 'none'}</strong>
        {ref?.kind === 'file' ? ' (a file)' : ''}
      </span>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          const made = urlOf(url);
          if ('error' in made) return setProblem(made.error);
          setProblem('');
          if (editor && setBlockData(editor, target.pos, { ref: { kind: 'url', url: made.url } }))
            onNotice(`The block reads its specification from ${made.url}.`);
        }}
      >
        <label htmlFor={id}>
          Specification URL{' '}
          <input
            id={id}
            type="text"
            inputMode="url"
            value={url}
            placeholder="https://…/openapi.yaml"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(e) => {
              setUrl(e.target.value);
              setProblem('');
            }}
          />
        </label>
        <button type="submit">Use this URL</button>
      </form>
      <button type="button" onClick={() => onReplaceFile('.json,.yaml,.yml,application/json,application/yaml')}>
        Upload a file…
      </button>
      {problem && (
        <span id={`${id}-problem`} role="alert">
          {problem}
        </span>
      )}
    </>
  );
}

const specOf = (target: Target): string =>
  target.attrs.data?.ref?.kind === 'openapi' ? String(target.attrs.data.ref.spec ?? '') : '';

/** An OpenAPI schemas block: its specification, the schemas it shows (checked), grouped or not. */
function SchemasSettings({ editor, space, target, onNotice }: Props) {
  const data = target.attrs.data ?? {};
  const spec = specOf(target);
  const specs = useSpecs(space);
  const content = useSpecEntry(specs.data?.org, spec);
  const chosen: string[] = Array.isArray(data.schemas) ? data.schemas : [];
  const names = content.read ? schemasOf(content.entry) : [];
  // the block's schemas first (one the specification lacks too), then the others of the specification
  const shown = [...chosen, ...names.filter((n) => !chosen.includes(n))];
  const set = (patch: Record<string, unknown>) => editor && setBlockData(editor, target.pos, patch);
  return (
    <>
      <SpecSelect
        id={`block-openapi-schemas-spec-${target.pos}`}
        current={spec}
        specs={specs.data?.specs}
        onPick={(slug) => {
          // the schemas stay until others are checked (GitBook requires the list)
          if (set({ ref: { kind: 'openapi', spec: slug }, schemas: chosen })) onNotice(`Specification: ${slug}.`);
        }}
      />
      <fieldset className="schema-list">
        <legend>Schemas</legend>
        {shown.map((n) => (
          <label key={n}>
            <input
              type="checkbox"
              checked={chosen.includes(n)}
              onChange={(e) => {
                // in the specification's order; one it lacks keeps its place first
                const next = e.target.checked
                  ? shown.filter((s) => s === n || chosen.includes(s))
                  : chosen.filter((s) => s !== n);
                set({ schemas: next });
              }}
            />{' '}
            {n}
            {content.read && !names.includes(n) ? ' (not in the specification)' : ''}
          </label>
        ))}
        {content.read && names.length === 0 && <span className="muted">This specification has no schemas.</span>}
      </fieldset>
      <label htmlFor={`block-openapi-schemas-grouped-${target.pos}`}>
        <input
          id={`block-openapi-schemas-grouped-${target.pos}`}
          type="checkbox"
          checked={data.grouped !== false}
          // GitBook's default is grouped: unchecked is stored as false, checked as true only when it was set
          onChange={(e) => set({ grouped: e.target.checked ? ('grouped' in data ? true : undefined) : false })}
        />{' '}
        Grouped
      </label>
      {(specs.error || (content.error && spec)) && (
        <span className="muted" role="status">
          {specs.error
            ? `The specifications could not be read: ${specs.error.message}`
            : `The schemas of ${spec} could not be read: ${content.error!.message}`}
        </span>
      )}
    </>
  );
}

/** An OpenAPI webhook block: its specification and one of its webhooks (name and method). */
function WebhookSettings({ editor, space, target, onNotice }: Props) {
  const data = target.attrs.data ?? {};
  const spec = specOf(target);
  const specs = useSpecs(space);
  const content = useSpecEntry(specs.data?.org, spec);
  const hooks = content.read ? webhooksOf(content.entry) : [];
  const chosen = webhookKey(data);
  const id = `block-openapi-webhook-${target.pos}`;
  const set = (patch: Record<string, unknown>) => editor && setBlockData(editor, target.pos, patch);
  return (
    <>
      <SpecSelect
        id={`block-openapi-webhook-spec-${target.pos}`}
        current={spec}
        specs={specs.data?.specs}
        onPick={(slug) => {
          // the webhook's name and method stay (both required) until another is chosen
          if (set({ ref: { kind: 'openapi', spec: slug }, name: data.name ?? '', method: data.method ?? '' }))
            onNotice(`Specification: ${slug}.`);
        }}
      />
      <label htmlFor={id}>
        Webhook{' '}
        <select
          id={id}
          value={chosen}
          disabled={!spec}
          onChange={(e) => {
            const w = hooks.find((h) => webhookKey(h) === e.target.value);
            if (w && set({ name: w.name, method: w.method }))
              onNotice(`The block shows the webhook ${w.name} (${w.method.toUpperCase()}) of ${spec}.`);
          }}
        >
          {!chosen && <option value="">Choose…</option>}
          {chosen && !hooks.some((h) => webhookKey(h) === chosen) && (
            <option value={chosen}>
              {data.name} ({String(data.method).toUpperCase()}){content.read ? ' (not in the specification)' : ''}
            </option>
          )}
          {hooks.map((h) => (
            <option key={webhookKey(h)} value={webhookKey(h)}>
              {h.name} ({h.method.toUpperCase()}){h.summary ? ` · ${h.summary}` : ''}
            </option>
          ))}
        </select>
      </label>
      {content.read && hooks.length === 0 && <span className="muted">This specification has no webhooks.</span>}
      {(specs.error || (content.error && spec)) && (
        <span className="muted" role="status">
          {specs.error
            ? `The specifications could not be read: ${specs.error.message}`
            : `The webhooks of ${spec} could not be read: ${content.error!.message}`}
        </span>
      )}
    </>
  );
}
