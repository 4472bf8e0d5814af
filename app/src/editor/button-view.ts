// A button inline drawn in the editor as the published site draws it (packages/document/src/render/inlines.ts
// `button`): the classes `button`, `button-secondary` for its kind and `button-{size}` for its size, and its icon
// (an `.inline-icon` masked by the icon's SVG) before its label. The app's CSP has no inline styles, so the icon's
// `--icon` is set through the CSSOM by a node view, never as a `style` attribute.
import type { NodeViewRenderer } from '@tiptap/core';
import { iconLoads, iconSrc } from '../screens/tree/page-icon.ts';
import './button.css';

const SIZES = new Set(['small', 'medium', 'large']);

/** The site's classes of a button: `button`, `button-secondary` (primary is the default), `button-{size}`. */
export function buttonClasses(data: { kind?: unknown; size?: unknown } | null | undefined): string {
  const cls = ['button'];
  if (data?.kind === 'secondary') cls.push('button-secondary');
  if (typeof data?.size === 'string' && SIZES.has(data.size)) cls.push(`button-${data.size}`);
  return cls.join(' ');
}

/** Fills `dom` with the button of `data`: its icon (when its SVG loads, as on the site) and its label. */
export function drawButton(dom: HTMLElement, data: Record<string, unknown> | null | undefined): void {
  dom.className = `gb-inline gb-button ${buttonClasses(data)}`;
  dom.dataset.gbType = 'button';
  const label = document.createTextNode(String(data?.label ?? ''));
  const src = typeof data?.icon === 'string' ? iconSrc(data.icon) : null;
  if (!src) {
    dom.replaceChildren(label);
    return;
  }
  const icon = document.createElement('span');
  icon.className = 'inline-icon';
  icon.setAttribute('aria-hidden', 'true');
  icon.style.setProperty('--icon', `url(${src})`);
  dom.replaceChildren(icon, label);
  // an icon Font Awesome does not have draws nothing, as on the site
  void iconLoads(src).then((ok) => ok || icon.remove());
}

/** The node view of GitBook's `button` inline. */
export const buttonView: NodeViewRenderer = ({ node }) => {
  const dom = document.createElement('span');
  let drawn = node;
  drawButton(dom, node.attrs.data);
  return {
    dom,
    update(next) {
      if (next.type !== drawn.type) return false;
      if (next.attrs.data !== drawn.attrs.data) drawButton(dom, next.attrs.data);
      drawn = next;
      return true;
    },
    ignoreMutation: () => true,
  };
};
