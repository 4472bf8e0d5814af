// What a block's settings do besides its fields: a page reference's target changed through the page picker, an
// image's file replaced by another upload, its dark-mode file (`refDark`) uploaded, replaced or removed.
import { describeRef, type LinkRef } from './links.ts';
import type { Target } from './settings.ts';
import { fileNames } from './uploads.ts';

interface Props {
  target: Target;
  onChangePage(): void;
  /** the image's file replaced, or (`dark`) its dark-mode file chosen */
  onReplaceFile(dark?: boolean): void;
  onRemoveDark(): void;
}

export function BlockActions({ target, onChangePage, onReplaceFile, onRemoveDark }: Props) {
  if (target.type === 'contentRef')
    return (
      <>
        <span className="ref-target">
          Links to: <strong>{describeRef(target.attrs.data?.ref as LinkRef | undefined)}</strong>
        </span>
        <button type="button" onClick={onChangePage}>
          Change page…
        </button>
      </>
    );
  if (target.type === 'image') {
    const dark = target.attrs.data?.refDark as LinkRef | undefined;
    const darkName =
      dark?.kind === 'file' && !dark.space
        ? (fileNames.get(String(dark.file)) ?? String(dark.file))
        : dark?.kind === 'url'
          ? String(dark.url)
          : undefined;
    return (
      <>
        <button type="button" onClick={() => onReplaceFile()}>
          Replace file…
        </button>
        <span className="image-dark">
          Dark mode: <strong>{dark ? (darkName ?? `a ${dark.kind}`) : 'the same image'}</strong>
        </span>
        <button type="button" onClick={() => onReplaceFile(true)}>
          {dark ? 'Replace dark-mode image…' : 'Add a dark-mode image…'}
        </button>
        {dark && (
          <button type="button" onClick={onRemoveDark}>
            Remove dark-mode image
          </button>
        )}
      </>
    );
  }
  return null;
}
