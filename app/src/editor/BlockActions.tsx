// What a block's settings do besides its fields: a page reference's target changed through the page picker, an
// image's file replaced by another upload.
import { describeRef, type LinkRef } from './links.ts';
import type { Target } from './settings.ts';

interface Props {
  target: Target;
  onChangePage(): void;
  onReplaceFile(): void;
}

export function BlockActions({ target, onChangePage, onReplaceFile }: Props) {
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
  if (target.type === 'image')
    return (
      <button type="button" onClick={onReplaceFile}>
        Replace file…
      </button>
    );
  return null;
}
