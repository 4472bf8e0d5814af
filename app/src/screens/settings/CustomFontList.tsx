import { useId, useState } from 'react';
import { useAction } from '../../api/use.ts';
import { type CustomFont, FONT_ACCEPT, FONT_MAX_BYTES, fontApi } from './fonts-api.ts';
import './custom-fonts.css';

const WEIGHT_NAMES: Record<number, string> = { 400: 'Regular', 700: 'Bold' };
const weightName = (w: number) => WEIGHT_NAMES[w] ?? `Weight ${w}`;

/**
 * The organization's custom fonts, each with its faces; for an organization admin (`permissions.edit`), a bold face
 * (700) to add, replace or remove (`updateCustomFont`), and a delete with a confirmation step (`deleteCustomFont`:
 * the sites that chose the font draw the default font). `onChanged` reloads what shows the fonts.
 */
export function CustomFontList({
  org,
  fonts,
  onChanged,
}: {
  org: string;
  fonts: CustomFont[];
  onChanged(change: { deleted?: string }): void;
}) {
  const [done, setDone] = useState('');
  // Without fonts (the last one deleted) only what was done shows.
  if (!fonts.length) return <p aria-live="polite">{done}</p>;
  return (
    <div className="stack custom-font-list">
      <h4>Custom fonts of the organization</h4>
      <ul>
        {fonts.map((font) => (
          <CustomFontItem
            key={font.id}
            org={org}
            font={font}
            onChanged={(message, change) => {
              setDone(message);
              onChanged(change);
            }}
          />
        ))}
      </ul>
      <p aria-live="polite">{done}</p>
    </div>
  );
}

function CustomFontItem({
  org,
  font,
  onChanged,
}: {
  org: string;
  font: CustomFont;
  onChanged(message: string, change: { deleted?: string }): void;
}) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  // A new key empties the file input once its file is uploaded.
  const [input, setInput] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState('');
  const action = useAction();
  const weights = font.fontFaces.map((f) => f.weight);
  const hasBold = weights.includes(700);
  const setBold = async () => {
    setProblem('');
    if (!file) return setProblem('Choose a font file first.');
    if (file.size > FONT_MAX_BYTES) return setProblem('A font file may be at most 2 MiB.');
    const updated = await action.run(() => fontApi.setFace(org, font.id, file, 700));
    if (updated) {
      setFile(null);
      setInput((n) => n + 1);
      onChanged(`${font.fontFamily}: bold face ${hasBold ? 'replaced' : 'added'}. Sites using it draw it now.`, {});
    }
  };
  const removeBold = async () => {
    if (await action.run(() => fontApi.removeFace(org, font.id, 700)))
      onChanged(`${font.fontFamily}: bold face removed.`, {});
  };
  const remove = async () => {
    const removed = await action.run(async () => {
      await fontApi.remove(org, font.id);
      return true;
    });
    if (removed)
      onChanged(`Deleted ${font.fontFamily}. Sites that used it draw the default font.`, { deleted: font.id });
  };
  return (
    <li className="custom-font">
      <p>
        <strong>{font.fontFamily}</strong> <span className="muted">{weights.map(weightName).join(', ')}</span>
      </p>
      {font.permissions.edit && (
        <div className="stack">
          <div className="field">
            <label htmlFor={`${id}-bold`}>
              {hasBold ? 'New bold (700) file for' : 'Bold (700) file for'} {font.fontFamily}
            </label>
            <input
              key={input}
              id={`${id}-bold`}
              type="file"
              accept={FONT_ACCEPT}
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </div>
          <div className="row">
            <button type="button" onClick={setBold} disabled={action.busy}>
              {hasBold ? `Replace bold of ${font.fontFamily}` : `Add bold to ${font.fontFamily}`}
            </button>
            {hasBold && (
              <button type="button" onClick={removeBold} disabled={action.busy}>
                Remove bold of {font.fontFamily}
              </button>
            )}
            {confirming ? (
              <>
                <button type="button" className="danger" onClick={remove} disabled={action.busy}>
                  Confirm delete {font.fontFamily}
                </button>
                <button type="button" onClick={() => setConfirming(false)}>
                  Cancel
                </button>
              </>
            ) : (
              <button type="button" className="danger" onClick={() => setConfirming(true)}>
                Delete {font.fontFamily}
              </button>
            )}
          </div>
          {confirming && <p className="muted">Sites that use {font.fontFamily} will draw the default font instead.</p>}
        </div>
      )}
      {(problem || action.error) && <p role="alert">{problem || action.error}</p>}
    </li>
  );
}
