import { useId, useState } from 'react';
import { useAction } from '../../api/use.ts';
import { type CustomFont, FONT_ACCEPT, FONT_MAX_BYTES, fontApi } from './fonts-api.ts';

/** A family name from a file's name: `brand-sans_regular.woff2` → `Brand Sans`, `poppins-latin-400-normal` → `Poppins`. */
export function familyOf(fileName: string): string {
  const base = fileName
    .replace(/\.[^.]+$/, '')
    .replace(/(?:[-_ ](?:regular|normal|variable|vf|wght|latin|ext|\d{3}))+$/i, '');
  return base
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ')
    .slice(0, 50);
}

/**
 * Uploads a font file (its regular face) and makes it a custom font of the organization (`generateStorageUploadURL`,
 * the bytes `PUT` to the signed URL, `createCustomFont`); `onUploaded` chooses it. Organization admins only: the API
 * says so to others. Not a form of its own (it sits in the customization's form): the button uploads.
 */
export function CustomFontUpload({ org, onUploaded }: { org: string; onUploaded(font: CustomFont): void }) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [family, setFamily] = useState('');
  const [done, setDone] = useState('');
  const [problem, setProblem] = useState('');
  const action = useAction();
  const upload = async () => {
    setDone('');
    setProblem('');
    if (!file) return setProblem('Choose a font file first.');
    if (file.size > FONT_MAX_BYTES) return setProblem('A font file may be at most 2 MiB.');
    const name = family.trim() || familyOf(file.name);
    const font = await action.run(() => fontApi.upload(org, file, name));
    if (font) {
      setDone(`Uploaded ${font.fontFamily}: chosen for the text. Save the customization to publish it.`);
      onUploaded(font);
    }
  };
  return (
    <div className="stack custom-font-upload">
      <p className="muted">
        Your own font: a WOFF2, WOFF, TrueType or OpenType file of at most 2 MiB (its regular weight), served by this
        instance.
      </p>
      <div className="field">
        <label htmlFor={`${id}-file`}>Font file</label>
        <input
          id={`${id}-file`}
          type="file"
          accept={FONT_ACCEPT}
          onChange={(e) => {
            const f = e.target.files?.[0] ?? null;
            setFile(f);
            if (f && !family.trim()) setFamily(familyOf(f.name));
          }}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-family`}>Font name</label>
        <input id={`${id}-family`} value={family} maxLength={50} onChange={(e) => setFamily(e.target.value)} />
      </div>
      <button type="button" onClick={upload} disabled={action.busy}>
        {action.busy ? 'Uploading…' : 'Upload font'}
      </button>
      <span aria-live="polite">{done}</span>
      {(problem || action.error) && <p role="alert">{problem || action.error}</p>}
    </div>
  );
}
