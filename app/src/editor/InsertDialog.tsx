// The `/` menu's blocks that point at something: an OpenAPI operation, schemas or webhook (a specification of the
// organization, then one of its operations, some of its schemas, or one of its webhooks), a reusable content of the
// space, a block of an integration installed for the space, a button (a label, a style and a target). A dialog picks what
// the block shows before it is inserted, so no block is ever written without its target (GitBook requires it).
import { useEffect, useId, useRef, useState } from 'react';
import type { EditorNode } from '@quire/document/editor';
import { DialogButtons } from './DialogButtons.tsx';
import { LinkDialog } from './LinkDialog.tsx';
import {
  type Operation,
  type Webhook,
  buttonNode,
  integrationBlockNode,
  openapiOperationNode,
  openapiSchemasNode,
  openapiWebhookNode,
  operationKey,
  operationsOf,
  reusableContentNode,
  schemasOf,
  webhookKey,
  webhooksOf,
} from './ref-blocks.ts';
import { reusableContentsOf, SpecSelect, useSpecEntry, useSpecs } from './RefBlockSettings.tsx';
import { integrations } from '../api/integrations.ts';
import { useLoad } from '../api/use.ts';
import type { PickablePage } from './uploads.ts';
import './more-blocks.css';

export type InsertKind = 'openapi' | 'openapi-schemas' | 'openapi-webhook' | 'reusable' | 'integration' | 'button';

interface Props {
  kind: InsertKind;
  space: string;
  changeRequest?: string | undefined;
  pages: PickablePage[] | undefined;
  loadPages(): void;
  /** The block made (inserted at the cursor by the screen) and a sentence saying so. */
  onInsert(node: EditorNode, message: string): void;
  onClose(): void;
}

export function InsertDialog(props: Props) {
  if (props.kind === 'button') return <InsertButton {...props} />;
  if (props.kind === 'integration') return <PickIntegrationBlock {...props} />;
  return <PickDialog {...props} kind={props.kind} />;
}

/** A modal `<dialog>` with a heading, closed by Escape or Cancel. */
function Modal({ title, onClose, children }: { title: string; onClose(): void; children: React.ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const heading = useId();
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal?.();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="page-picker insert-dialog"
      aria-labelledby={heading}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={heading}>{title}</h2>
      {children}
    </dialog>
  );
}

/** An OpenAPI block (an operation, schemas, a webhook) or a reusable content, picked from lists. */
function PickDialog({
  kind,
  space,
  changeRequest,
  onInsert,
  onClose,
}: Props & { kind: Exclude<InsertKind, 'button' | 'integration'> }) {
  if (kind === 'reusable')
    return <PickReusable space={space} changeRequest={changeRequest} onInsert={onInsert} onClose={onClose} />;
  return <PickFromSpec kind={kind} space={space} onInsert={onInsert} onClose={onClose} />;
}

const SPEC_TITLES = {
  openapi: 'Insert an OpenAPI operation',
  'openapi-schemas': 'Insert OpenAPI schemas',
  'openapi-webhook': 'Insert an OpenAPI webhook',
} as const;

/**
 * A specification of the organization, then what of it the block shows: one operation, one webhook (a select each)
 * or schemas (checkboxes, with "Grouped", GitBook's default). Insert is enabled once something is chosen.
 */
function PickFromSpec({
  kind,
  space,
  onInsert,
  onClose,
}: Pick<Props, 'space' | 'onInsert' | 'onClose'> & { kind: keyof typeof SPEC_TITLES }) {
  const [spec, setSpec] = useState('');
  const [op, setOp] = useState('');
  const [checked, setChecked] = useState<string[]>([]);
  const [grouped, setGrouped] = useState(true);
  const specs = useSpecs(space);
  const content = useSpecEntry(specs.data?.org, spec);
  const opId = useId();
  const what = kind === 'openapi' ? 'operations' : kind === 'openapi-webhook' ? 'webhooks' : 'schemas';
  const operations: Operation[] = content.read && kind === 'openapi' ? operationsOf(content.entry) : [];
  const hooks: Webhook[] = content.read && kind === 'openapi-webhook' ? webhooksOf(content.entry) : [];
  const names = content.read && kind === 'openapi-schemas' ? schemasOf(content.entry) : [];
  const count = kind === 'openapi' ? operations.length : kind === 'openapi-webhook' ? hooks.length : names.length;
  const made = ((): { node: EditorNode; message: string } | undefined => {
    if (kind === 'openapi') {
      const o = operations.find((x) => operationKey(x) === op);
      return (
        o && {
          node: openapiOperationNode(spec, o),
          message: `Inserted ${o.method.toUpperCase()} ${o.path} of ${spec}.`,
        }
      );
    }
    if (kind === 'openapi-webhook') {
      const w = hooks.find((x) => webhookKey(x) === op);
      return (
        w && {
          node: openapiWebhookNode(spec, w),
          message: `Inserted the webhook ${w.name} (${w.method.toUpperCase()}) of ${spec}.`,
        }
      );
    }
    // in the specification's order
    const chosen = names.filter((n) => checked.includes(n));
    return chosen.length > 0
      ? {
          node: openapiSchemasNode(spec, chosen, grouped),
          message: `Inserted the schemas ${chosen.join(', ')} of ${spec}.`,
        }
      : undefined;
  })();
  return (
    <Modal title={SPEC_TITLES[kind]} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (made) onInsert(made.node, made.message);
        }}
      >
        <SpecSelect
          id={`${opId}-spec`}
          current={spec}
          specs={specs.data?.specs}
          onPick={(s) => {
            setSpec(s);
            setOp('');
            setChecked([]);
          }}
        />
        {specs.data && specs.data.specs.length === 0 && (
          <p>This organization has no OpenAPI specification yet: add one on the organization's OpenAPI screen.</p>
        )}
        {kind === 'openapi-schemas' ? (
          spec && (
            <>
              <fieldset className="schema-list">
                <legend>Schemas</legend>
                {!content.read && !content.error && <span>Loading…</span>}
                {names.map((n) => (
                  <label key={n}>
                    <input
                      type="checkbox"
                      checked={checked.includes(n)}
                      onChange={(e) => setChecked(e.target.checked ? [...checked, n] : checked.filter((c) => c !== n))}
                    />{' '}
                    {n}
                  </label>
                ))}
              </fieldset>
              <label htmlFor={`${opId}-grouped`}>
                <input
                  id={`${opId}-grouped`}
                  type="checkbox"
                  checked={grouped}
                  onChange={(e) => setGrouped(e.target.checked)}
                />{' '}
                Grouped
              </label>
            </>
          )
        ) : (
          <label htmlFor={opId}>
            {kind === 'openapi' ? 'Operation' : 'Webhook'}{' '}
            <select id={opId} value={op} disabled={!spec} onChange={(e) => setOp(e.target.value)}>
              <option value="">{spec && !content.read ? 'Loading…' : 'Choose…'}</option>
              {operations.map((o) => (
                <option key={operationKey(o)} value={operationKey(o)}>
                  {o.method.toUpperCase()} {o.path}
                  {o.summary ? ` · ${o.summary}` : ''}
                </option>
              ))}
              {hooks.map((w) => (
                <option key={webhookKey(w)} value={webhookKey(w)}>
                  {w.name} ({w.method.toUpperCase()}){w.summary ? ` · ${w.summary}` : ''}
                </option>
              ))}
            </select>
          </label>
        )}
        {spec && content.read && count === 0 && <p>This specification has no {what}.</p>}
        {(specs.error || (content.error && spec)) && (
          <p role="alert">
            {specs.error
              ? `The specifications could not be read: ${specs.error.message}`
              : `The ${what} of ${spec} could not be read: ${content.error!.message}`}
          </p>
        )}
        <DialogButtons submit="Insert" disabled={!made} onCancel={onClose} />
      </form>
    </Modal>
  );
}

function PickReusable({
  space,
  changeRequest,
  onInsert,
  onClose,
}: Pick<Props, 'space' | 'changeRequest' | 'onInsert' | 'onClose'>) {
  const [id, setId] = useState('');
  const list = useLoad(() => reusableContentsOf(space, changeRequest), `insert-reusable:${space}:${changeRequest}`);
  const contents = list.data ?? [];
  const chosen = contents.find((c) => c.id === id);
  const selectId = useId();
  return (
    <Modal title="Insert reusable content" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (chosen) onInsert(reusableContentNode(chosen.id), `Inserted the reusable content ${chosen.title}.`);
        }}
      >
        <label htmlFor={selectId}>
          Content{' '}
          <select id={selectId} value={id} onChange={(e) => setId(e.target.value)}>
            <option value="">{list.data ? 'Choose…' : 'Loading…'}</option>
            {contents.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </label>
        {list.data && contents.length === 0 && <p>This space has no reusable content yet.</p>}
        {list.error && <p role="alert">The reusable contents could not be read: {list.error.message}</p>}
        <DialogButtons submit="Insert" disabled={!chosen} onCancel={onClose} />
      </form>
    </Modal>
  );
}

/**
 * A block of an integration installed for the space (`listSpaceIntegrationsBlocks`: its organization's installations
 * for all spaces, or those installed on it), one select grouped by integration. The integration draws the block; it is
 * inserted with empty props, as GitBook does.
 */
function PickIntegrationBlock({ space, onInsert, onClose }: Pick<Props, 'space' | 'onInsert' | 'onClose'>) {
  const [key, setKey] = useState('');
  const list = useLoad(() => integrations.blocksOf(space), `insert-integration:${space}`);
  const selectId = useId();
  const keyOf = (name: string, block: string) => JSON.stringify([name, block]);
  const found = (list.data ?? [])
    .flatMap((i) => i.blocks.map((b) => ({ name: i.name, block: b })))
    .find((c) => keyOf(c.name, c.block.id) === key);
  return (
    <Modal title="Insert an integration block" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (found)
            onInsert(
              integrationBlockNode(found.name, found.block.id),
              `Inserted the block ${found.block.title} of ${found.name}.`,
            );
        }}
      >
        <label htmlFor={selectId}>
          Block{' '}
          <select id={selectId} value={key} onChange={(e) => setKey(e.target.value)}>
            <option value="">{list.data ? 'Choose…' : 'Loading…'}</option>
            {(list.data ?? []).map((i) => (
              <optgroup key={i.name} label={i.name}>
                {i.blocks.map((b) => (
                  <option key={b.id} value={keyOf(i.name, b.id)}>
                    {b.title}
                    {b.description ? ` · ${b.description}` : ''}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        {list.data && list.data.length === 0 && (
          <p>
            No integration with blocks is installed for this space: an organization admin installs one on the
            organization's Integrations screen.
          </p>
        )}
        {list.error && <p role="alert">The integration blocks could not be read: {list.error.message}</p>}
        <DialogButtons submit="Insert" disabled={!found} onCancel={onClose} />
      </form>
    </Modal>
  );
}

/** A button: its label and style, then its target in the link dialog (a web address or a page). */
function InsertButton({ pages, loadPages, onInsert, onClose }: Props) {
  const [label, setLabel] = useState('');
  const [kind, setKind] = useState<'primary' | 'secondary'>('primary');
  const [step, setStep] = useState<'label' | 'target'>('label');
  const [problem, setProblem] = useState('');
  const labelId = useId();
  const kindId = useId();
  if (step === 'target')
    return (
      <LinkDialog
        title="Button target"
        current={undefined}
        text={label}
        pages={pages}
        loadPages={loadPages}
        onSet={(ref) => onInsert(buttonNode(label, kind, ref), `Inserted the button "${label}".`)}
        onClose={onClose}
      />
    );
  return (
    <Modal title="Insert a button" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!label.trim()) return setProblem("Type the button's label.");
          setStep('target');
        }}
      >
        <label htmlFor={labelId}>
          Label{' '}
          <input
            id={labelId}
            value={label}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${labelId}-problem` : undefined}
            onChange={(e) => {
              setLabel(e.target.value);
              setProblem('');
            }}
          />
        </label>
        <label htmlFor={kindId}>
          Style{' '}
          <select id={kindId} value={kind} onChange={(e) => setKind(e.target.value as 'primary' | 'secondary')}>
            <option>primary</option>
            <option>secondary</option>
          </select>
        </label>
        {problem && (
          <p id={`${labelId}-problem`} role="alert">
            {problem}
          </p>
        )}
        <DialogButtons submit="Next: its target…" onCancel={onClose} />
      </form>
    </Modal>
  );
}
