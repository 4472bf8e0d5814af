import { type ReactNode, useEffect, useId, useState } from 'react';
import type { Customization } from '../../api/settings.ts';
import { SelectField, TextField } from './common.tsx';

export type HeaderItem = Customization['header']['links'][number];
export type Footer = Customization['footer'];
type FooterGroup = Footer['groups'][number];
type Link = FooterGroup['links'][number];
export type Announcement = NonNullable<Customization['announcement']>;

/** Most header items and footer groups, and links of a group (the API's limits). */
const MAX = { header: 20, groups: 10, links: 20 };
const STYLES: [NonNullable<HeaderItem['style']>, string][] = [
  ['link', 'Link'],
  ['button-primary', 'Primary button'],
  ['button-secondary', 'Secondary button'],
];
const ANNOUNCEMENT_STYLES: [Announcement['style'], string][] = [
  ['info', 'Information'],
  ['warning', 'Warning'],
  ['danger', 'Danger'],
  ['success', 'Success'],
];

const urlOf = (to: Link['to'] | null) => (to?.kind === 'url' ? to.url : '');
/** A header item this form edits: a link to a URL. Menus, links to content and conditional items are kept as set. */
const editable = (i: HeaderItem) => i.links.length === 0 && !i.condition && (i.to === null || i.to.kind === 'url');
const put = <T,>(list: T[], i: number, item: T) => list.map((x, j) => (j === i ? item : x));
const drop = <T,>(list: T[], i: number) => list.filter((_, j) => j !== i);
/** The list with its item `i` and its neighbour `i + by` swapped. */
const swap = <T,>(list: T[], i: number, by: -1 | 1) =>
  list.map((x, j) => (j === i ? list[i + by]! : j === i + by ? list[i]! : x));

/** A link's title and URL, named by its place for screen readers ("Title of header link 2"), and Remove. */
function LinkFields(props: {
  name: string;
  title: string;
  url: string;
  max: number;
  onChange(title: string, url: string): void;
  onRemove(): void;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <li className="create">
      <TextField
        label={
          <>
            Title<span className="sr-only"> of {props.name}</span>
          </>
        }
        id={`${id}-t`}
        required
        maxLength={props.max}
        value={props.title}
        onChange={(e) => props.onChange(e.target.value, props.url)}
      />
      <TextField
        label={
          <>
            URL<span className="sr-only"> of {props.name}</span>
          </>
        }
        id={`${id}-u`}
        type="url"
        required
        maxLength={2048}
        placeholder="https://…"
        value={props.url}
        onChange={(e) => props.onChange(props.title, e.target.value)}
      />
      {props.children}
      <button type="button" onClick={props.onRemove}>
        Remove<span className="sr-only"> {props.name}</span>
      </button>
    </li>
  );
}

/** An item this form does not edit (set through the API): its title and what it is, kept, or removed. */
function Kept(props: { title: string; what: string; name: string; onRemove(): void; children?: ReactNode }) {
  return (
    <li>
      <span className="who">
        {props.title} <span className="muted">({props.what}, set through the API)</span>
      </span>
      {props.children}
      <button type="button" onClick={props.onRemove}>
        Remove<span className="sr-only"> {props.name}</span>
      </button>
    </li>
  );
}

/**
 * The header's links (`header.links`): title, URL and style of each; add, remove, move up or down (announced, the
 * focus following the moved link's button). `legend` names the fieldset (a site space's own links say whose).
 */
export function HeaderLinks({
  items,
  onChange,
  legend = 'Header links',
}: {
  items: HeaderItem[];
  onChange(items: HeaderItem[]): void;
  legend?: string;
}) {
  const id = useId();
  const button = (i: number, dir: 'up' | 'down') => `${id}-${i}-${dir}`;
  const [said, setSaid] = useState('');
  // Where a link was moved to: its button there takes the focus (or the other one at an end of the list).
  const [moved, setMoved] = useState<{ to: number; dir: 'up' | 'down' }>();
  useEffect(() => {
    if (!moved) return;
    setMoved(undefined);
    const own = document.getElementById(button(moved.to, moved.dir)) as HTMLButtonElement | null;
    const other = document.getElementById(button(moved.to, moved.dir === 'up' ? 'down' : 'up'));
    (own && !own.disabled ? own : other)?.focus();
  });
  const move = (i: number, by: -1 | 1) => {
    const title = items[i]?.title.trim();
    onChange(swap(items, i, by));
    setMoved({ to: i + by, dir: by < 0 ? 'up' : 'down' });
    setSaid(
      `Moved header link ${i + 1}${title ? ` (${title})` : ''} ${by < 0 ? 'up' : 'down'}: now header link ${i + 1 + by}.`,
    );
  };
  return (
    <fieldset>
      <legend>{legend}</legend>
      {items.length === 0 && <p className="muted">No link in the header.</p>}
      <ul className="settings-list">
        {items.map((item, i) => {
          const name = `header link ${i + 1}`;
          const order = (
            <span key="order" className="row">
              <button type="button" id={button(i, 'up')} disabled={i === 0} onClick={() => move(i, -1)}>
                Move up<span className="sr-only"> {name}</span>
              </button>
              <button type="button" id={button(i, 'down')} disabled={i === items.length - 1} onClick={() => move(i, 1)}>
                Move down<span className="sr-only"> {name}</span>
              </button>
            </span>
          );
          return editable(item) ? (
            <LinkFields
              // biome-ignore lint/suspicious/noArrayIndexKey: the links have no id; their place is their name
              key={i}
              name={name}
              title={item.title}
              url={urlOf(item.to)}
              max={512}
              onChange={(title, url) => onChange(put(items, i, { ...item, title, to: { kind: 'url', url } }))}
              onRemove={() => onChange(drop(items, i))}
            >
              <SelectField
                id={`${id}-${i}-s`}
                label={
                  <>
                    Style<span className="sr-only"> of {name}</span>
                  </>
                }
                value={item.style ?? 'link'}
                options={STYLES}
                onChange={(style) => onChange(put(items, i, { ...item, style }))}
              />
              {order}
            </LinkFields>
          ) : (
            <Kept
              // biome-ignore lint/suspicious/noArrayIndexKey: as above
              key={i}
              title={item.title}
              what={item.links.length ? 'a menu' : 'a link to content'}
              name={name}
              onRemove={() => onChange(drop(items, i))}
            >
              {order}
            </Kept>
          );
        })}
      </ul>
      <p className="muted" aria-live="polite">
        {said}
      </p>
      <button
        type="button"
        disabled={items.length >= MAX.header}
        onClick={() => onChange([...items, { title: '', to: { kind: 'url', url: '' }, links: [] }])}
      >
        Add a header link
      </button>
    </fieldset>
  );
}

/** The links of a footer group: title and URL each (links to content, set through the API, are kept as they are). */
function GroupLinks({ links, group, onChange }: { links: Link[]; group: string; onChange(links: Link[]): void }) {
  return (
    <>
      <ul className="settings-list" aria-label={`Links of ${group}`}>
        {links.map((l, i) =>
          l.to.kind === 'url' ? (
            <LinkFields
              // biome-ignore lint/suspicious/noArrayIndexKey: the links have no id; their place is their name
              key={i}
              name={`link ${i + 1} of ${group}`}
              title={l.title}
              url={l.to.url}
              max={64}
              onChange={(title, url) => onChange(put(links, i, { ...l, title, to: { kind: 'url', url } }))}
              onRemove={() => onChange(drop(links, i))}
            />
          ) : (
            <Kept
              // biome-ignore lint/suspicious/noArrayIndexKey: as above
              key={i}
              title={l.title}
              what="a link to content"
              name={`link ${i + 1} of ${group}`}
              onRemove={() => onChange(drop(links, i))}
            />
          ),
        )}
      </ul>
      <button
        type="button"
        disabled={links.length >= MAX.links}
        onClick={() => onChange([...links, { title: '', to: { kind: 'url', url: '' } }])}
      >
        Add a link<span className="sr-only"> to {group}</span>
      </button>
    </>
  );
}

/** The footer: its copyright line and its groups of links (`footer`). */
export function FooterFields({
  footer,
  onChange,
  legend = 'Footer',
}: {
  footer: Footer;
  onChange(footer: Footer): void;
  legend?: string;
}) {
  const id = useId();
  const groups = footer.groups;
  const setGroups = (g: FooterGroup[]) => onChange({ ...footer, groups: g });
  return (
    <fieldset>
      <legend>{legend}</legend>
      <div className="field">
        <label htmlFor={`${id}-c`}>Copyright line</label>
        <input
          id={`${id}-c`}
          maxLength={512}
          value={footer.copyright ?? ''}
          onChange={(e) => onChange({ ...footer, copyright: e.target.value })}
        />
      </div>
      {groups.map((g, i) => {
        const name = `footer group ${i + 1}`;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the groups have no id; their place is their name
          <fieldset key={i}>
            <legend>Footer group {i + 1}</legend>
            <div className="field">
              <label htmlFor={`${id}-${i}-t`}>
                Title<span className="sr-only"> of {name}</span>
              </label>
              <input
                id={`${id}-${i}-t`}
                maxLength={512}
                value={g.title}
                onChange={(e) => setGroups(put(groups, i, { ...g, title: e.target.value }))}
              />
            </div>
            <GroupLinks links={g.links} group={name} onChange={(links) => setGroups(put(groups, i, { ...g, links }))} />{' '}
            <button type="button" onClick={() => setGroups(drop(groups, i))}>
              Remove<span className="sr-only"> {name}</span> group
            </button>
          </fieldset>
        );
      })}
      <button
        type="button"
        disabled={groups.length >= MAX.groups}
        onClick={() => setGroups([...groups, { title: '', links: [] }])}
      >
        Add a footer group
      </button>
    </fieldset>
  );
}

/** The announcement banner (`announcement`): shown or not, its message, style and an optional link to a URL. */
export function AnnouncementFields(props: { value: Announcement; onChange(a: Announcement): void; legend?: string }) {
  const { value: a, onChange } = props;
  const id = useId();
  const url = a.link ? urlOf(a.link.to) : '';
  const setLink = (title: string, u: string) =>
    onChange(
      u.trim() || title.trim()
        ? { ...a, link: { title, to: { kind: 'url', url: u } } }
        : (({ link: _, ...rest }) => rest)(a),
    );
  return (
    <fieldset>
      <legend>{props.legend ?? 'Announcement'}</legend>
      <label className="check">
        <input type="checkbox" checked={a.enabled} onChange={(e) => onChange({ ...a, enabled: e.target.checked })} />
        Show the announcement above every page
      </label>
      <div className="field">
        <label htmlFor={`${id}-m`}>Message</label>
        <input
          id={`${id}-m`}
          required={a.enabled}
          minLength={2}
          maxLength={128}
          value={a.message}
          onChange={(e) => onChange({ ...a, message: e.target.value })}
        />
      </div>
      <SelectField
        id={`${id}-s`}
        label="Style of the announcement"
        value={a.style}
        options={ANNOUNCEMENT_STYLES}
        onChange={(style) => onChange({ ...a, style })}
      />
      {a.link && a.link.to.kind !== 'url' ? (
        <p className="muted">Its link ({a.link.title}, to content, set through the API) is kept.</p>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${id}-lt`}>Link text (optional)</label>
            <input
              id={`${id}-lt`}
              maxLength={64}
              required={!!url.trim()}
              value={a.link?.title ?? ''}
              onChange={(e) => setLink(e.target.value, url)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-lu`}>Link URL (optional)</label>
            <input
              id={`${id}-lu`}
              type="url"
              maxLength={2048}
              required={!!a.link?.title.trim()}
              placeholder="https://…"
              value={url}
              onChange={(e) => setLink(a.link?.title ?? '', e.target.value)}
            />
          </div>
        </>
      )}
    </fieldset>
  );
}
