import { useId, useState } from 'react';
import type { OpenAPISource } from '../../api/openapi.ts';

/** The longest file read into a `{ text }` source (the gateway's body limit). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** What the writer chose so far: a URL typed, or a file whose text was read. */
export interface SourceChoice {
  kind: 'url' | 'file';
  url: string;
  file?: { name: string; text: string } | undefined;
}
export const emptySource = (url = ''): SourceChoice => ({ kind: 'url', url });

/** The source to send, or the sentence saying what is missing. */
export function sourceOf(c: SourceChoice): OpenAPISource | string {
  if (c.kind === 'url') return c.url.trim() ? { url: c.url.trim() } : 'Give the URL of the document.';
  return c.file ? { text: c.file.text } : 'Choose a file (YAML or JSON).';
}

/**
 * Where a specification's document comes from: a URL (fetched by the instance, again on "Check for updates") or a
 * file chosen on this computer (its text is sent: the instance keeps it, and reads no URL). `label` names the group.
 */
export function SourceFields(props: { label: string; value: SourceChoice; onChange(c: SourceChoice): void }) {
  const id = useId();
  const [error, setError] = useState<string>();
  const { value: c, onChange } = props;
  const read = async (file: File | undefined) => {
    setError(undefined);
    if (!file) return onChange({ ...c, file: undefined });
    if (file.size > MAX_FILE_BYTES) {
      setError(`${file.name} is larger than 4 MB.`);
      return onChange({ ...c, file: undefined });
    }
    onChange({ ...c, file: { name: file.name, text: await file.text() } });
  };
  return (
    <fieldset className="source">
      <legend>{props.label}</legend>
      <label className="check">
        <input
          type="radio"
          name={`${id}-kind`}
          checked={c.kind === 'url'}
          onChange={() => onChange({ ...c, kind: 'url' })}
        />
        From a URL
      </label>
      <label className="check">
        <input
          type="radio"
          name={`${id}-kind`}
          checked={c.kind === 'file'}
          onChange={() => onChange({ ...c, kind: 'file' })}
        />
        From a file on this computer
      </label>
      {c.kind === 'url' ? (
        <div className="field">
          <label htmlFor={`${id}-url`}>URL of the document (http or https)</label>
          <input
            id={`${id}-url`}
            type="url"
            className="url"
            required
            maxLength={2048}
            placeholder="https://example.com/openapi.yaml"
            value={c.url}
            onChange={(e) => onChange({ ...c, url: e.target.value })}
          />
        </div>
      ) : (
        <div className="field">
          <label htmlFor={`${id}-file`}>OpenAPI document (YAML or JSON)</label>
          <input
            id={`${id}-file`}
            type="file"
            required
            accept=".yaml,.yml,.json,application/json,application/yaml,text/yaml,text/plain"
            onChange={(e) => void read(e.target.files?.[0])}
          />
          {error && <p className="error">{error}</p>}
        </div>
      )}
    </fieldset>
  );
}
