import { useId } from 'react';
import { SelectField, TextField } from './common.tsx';
import { AI_MODES, type AIMode, PLATFORMS, SOCIAL_MAX, type SocialAccount } from './customize.ts';

const put = <T,>(list: T[], i: number, item: T) => list.map((x, j) => (j === i ? item : x));

/**
 * The site's social accounts (`socialAccounts`): each a platform, a handle (or the profile's URL), and where the
 * published site shows it (header, footer). Up to SOCIAL_MAX.
 */
export function SocialAccounts({
  items,
  onChange,
}: {
  items: SocialAccount[];
  onChange(items: SocialAccount[]): void;
}) {
  const id = useId();
  const add = () => onChange([...items, { platform: 'github', handle: '', display: { header: false, footer: true } }]);
  return (
    <fieldset>
      <legend>Social accounts</legend>
      <p className="muted">
        Shown as links named by their platform. A handle (<code>@name</code>, Mastodon's <code>name@server</code>) or
        the profile's https URL.
      </p>
      {items.length === 0 && <p className="muted">No social account.</p>}
      <ol className="stack">
        {items.map((a, i) => {
          const name = `social account ${i + 1}`;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the rows have no id; a row is its place in the list.
            <li key={i} className="create">
              <SelectField
                id={`${id}-${i}-p`}
                label={
                  <>
                    Platform<span className="sr-only"> of {name}</span>
                  </>
                }
                value={a.platform}
                options={PLATFORMS}
                onChange={(platform) => onChange(put(items, i, { ...a, platform }))}
              />
              <TextField
                id={`${id}-${i}-h`}
                label={
                  <>
                    Handle or URL<span className="sr-only"> of {name}</span>
                  </>
                }
                required
                maxLength={128}
                value={a.handle}
                onChange={(e) => onChange(put(items, i, { ...a, handle: e.target.value }))}
              />
              <label className="check">
                <input
                  type="checkbox"
                  checked={a.display.header}
                  onChange={(e) =>
                    onChange(put(items, i, { ...a, display: { ...a.display, header: e.target.checked } }))
                  }
                />
                In the header<span className="sr-only"> ({name})</span>
              </label>
              <label className="check">
                <input
                  type="checkbox"
                  checked={a.display.footer}
                  onChange={(e) =>
                    onChange(put(items, i, { ...a, display: { ...a.display, footer: e.target.checked } }))
                  }
                />
                In the footer<span className="sr-only"> ({name})</span>
              </label>
              <button type="button" onClick={() => onChange(items.filter((_, j) => j !== i))}>
                Remove<span className="sr-only"> {name}</span>
              </button>
            </li>
          );
        })}
      </ol>
      <button type="button" onClick={add} disabled={items.length >= SOCIAL_MAX}>
        Add a social account
      </button>
    </fieldset>
  );
}

/** The AI settings of the form: GitBook's mode, greeting, suggestions (five fields, empty ones left out), instructions. */
export interface AIFields {
  mode: AIMode;
  greeting: string;
  suggestions: string[];
  instructions: string;
}

/**
 * GitBook's AI settings (`ai`), stored as GitBook has them, with what Quire does with each said plainly: the
 * published site has no chat window; its search page offers the greeting and the suggestions (as searches).
 */
export function AISettings({ value: a, onChange }: { value: AIFields; onChange(a: AIFields): void }) {
  const id = useId();
  const on = a.mode !== 'none';
  return (
    <fieldset>
      <legend>AI on the site</legend>
      <SelectField
        id={`${id}-mode`}
        label="AI mode"
        value={a.mode}
        options={AI_MODES}
        onChange={(mode) => onChange({ ...a, mode })}
        aria-describedby={`${id}-what`}
      />
      <p className="muted" id={`${id}-what`}>
        What Quire does: with Search or Assistant, the site's search page greets readers and offers the suggestions
        below as searches. Quire's pages have no chat window: questions are answered through the API (
        <code>streamAskInSite</code>, <code>streamAIResponseInSite</code>), from the site's pages, whatever the mode.
        The instructions are stored for GitBook compatibility; Quire does not send them to a model.
      </p>
      <TextField
        id={`${id}-greeting`}
        label="Greeting"
        maxLength={256}
        disabled={!on}
        value={a.greeting}
        onChange={(e) => onChange({ ...a, greeting: e.target.value })}
      />
      {a.suggestions.map((s, i) => (
        <TextField
          // biome-ignore lint/suspicious/noArrayIndexKey: five fixed fields, one per place.
          key={i}
          id={`${id}-s${i}`}
          label={`Suggested question ${i + 1}`}
          minLength={3}
          maxLength={64}
          disabled={!on}
          value={s}
          onChange={(e) => onChange({ ...a, suggestions: put(a.suggestions, i, e.target.value) })}
        />
      ))}
      <div className="field">
        <label htmlFor={`${id}-instr`}>Instructions (stored only)</label>
        <textarea
          id={`${id}-instr`}
          maxLength={10000}
          rows={3}
          disabled={!on}
          value={a.instructions}
          onChange={(e) => onChange({ ...a, instructions: e.target.value })}
        />
      </div>
    </fieldset>
  );
}
