// The `/` menu's blocks that point at something: an OpenAPI operation (a specification of the organization, then one
// of its operations), a reusable content of the space, a button (a label, a style and a target). A dialog picks what
// the block shows before it is inserted, so no block is ever written without its target (GitBook requires it).
import { useEffect, useId, useRef, useState } from 'react';
import type { EditorNode } from '@quire/document/editor';
import { LinkDialog } from './LinkDialog.tsx';
import {
  type Operation,
  buttonNode,
  openapiOperationNode,
  operationKey,
  operationsOf,
  reusableContentNode,
} from './ref-blocks.ts';
import { reusableContentsOf, SpecSelect, useSpecEntry, useSpecs } from './RefBlockSettings.tsx';
import { useLoad } from '../api/use.ts';
import type { PickablePage } from './uploads.ts';
import './more-blocks.css';

export type InsertKind = 'openapi' | 'reusable' | 'button';

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
  return <PickDialog {...props} />;
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

/** An OpenAPI operation or a reusable content, picked from lists. */
function PickDialog({ kind, space, changeRequest, onInsert, onClose }: Props) {
  return kind === 'openapi' ? (
    <PickOperation space={space} onInsert={onInsert} onClose={onClose} />
  ) : (
    <PickReusable space={space} changeRequest={changeRequest} onInsert={onInsert} onClose={onClose} />
  );
}

function PickOperation({ space, onInsert, onClose }: Pick<Props, 'space' | 'onInsert' | 'onClose'>) {
  const [spec, setSpec] = useState('');
  const [op, setOp] = useState('');
  const specs = useSpecs(space);
  const content = useSpecEntry(specs.data?.org, spec);
  const operations: Operation[] = content.read ? operationsOf(content.entry) : [];
  const chosen = operations.find((o) => operationKey(o) === op);
  const opId = useId();
  return (
    <Modal title="Insert an OpenAPI operation" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (chosen)
            onInsert(
              openapiOperationNode(spec, chosen),
              `Inserted ${chosen.method.toUpperCase()} ${chosen.path} of ${spec}.`,
            );
        }}
      >
        <SpecSelect
          id={`${opId}-spec`}
          current={spec}
          specs={specs.data?.specs}
          onPick={(s) => {
            setSpec(s);
            setOp('');
          }}
        />
        {specs.data && specs.data.specs.length === 0 && (
          <p>This organization has no OpenAPI specification yet: add one on the organization's OpenAPI screen.</p>
        )}
        <label htmlFor={opId}>
          Operation{' '}
          <select id={opId} value={op} disabled={!spec} onChange={(e) => setOp(e.target.value)}>
            <option value="">{spec && !content.read ? 'Loading…' : 'Choose…'}</option>
            {operations.map((o) => (
              <option key={operationKey(o)} value={operationKey(o)}>
                {o.method.toUpperCase()} {o.path}
                {o.summary ? ` · ${o.summary}` : ''}
              </option>
            ))}
          </select>
        </label>
        {spec && content.read && operations.length === 0 && <p>This specification has no operations.</p>}
        {(specs.error || (content.error && spec)) && (
          <p role="alert">
            {specs.error
              ? `The specifications could not be read: ${specs.error.message}`
              : `The operations of ${spec} could not be read: ${content.error!.message}`}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="submit" disabled={!chosen}>
            Insert
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
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
        <div className="dialog-buttons">
          <button type="submit" disabled={!chosen}>
            Insert
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
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
        <div className="dialog-buttons">
          <button type="submit">Next: its target…</button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
