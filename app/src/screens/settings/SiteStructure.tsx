import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { type SectionGroup, type SiteSection, type SiteStructure, settingsApi } from '../../api/settings.ts';
import { type Choice, Confirm, SelectField } from './common.tsx';

/** A section or a section group, at the root of a site or in a group. */
export type Item = Extract<SiteStructure, { type: 'sections' }>['structure'][number];
/** Runs a change of the site's structure, then says `said` (announced) and reads the structure again. */
export type Run = (fn: () => Promise<unknown>, said: string) => void;
interface Ctx {
  org: string;
  site: string;
  /** Every group of the site (nested ones after their parent), for a section's "Group" select. */
  groups: { id: string; title: string; depth: number }[];
  run: Run;
}

/** The groups of these items and of the groups in them, in navigation order. */
export const groupsOf = (items: Item[], depth = 0): Ctx['groups'] =>
  items.flatMap((i) =>
    i.object === 'site-section-group' ? [{ id: i.id, title: i.title, depth }, ...groupsOf(i.children, depth + 1)] : [],
  );

/** The groups as choices of a select, nested ones indented, after "None (top level)". */
export const groupChoices = (groups: Ctx['groups']): Choice<string>[] => [
  ['', 'None (top level)'],
  ...groups.map((g) => [g.id, `${'— '.repeat(g.depth)}${g.title}`] as const),
];

/** The groups a group may move into: all but itself and the groups inside it (they follow it, deeper). */
const groupsOutside = (groups: Ctx['groups'], id: string): Ctx['groups'] => {
  const at = groups.findIndex((g) => g.id === id);
  if (at < 0) return groups;
  const depth = groups[at]!.depth;
  let end = at + 1;
  while (end < groups.length && groups[end]!.depth > depth) end++;
  return [...groups.slice(0, at), ...groups.slice(end)];
};

const nameOf = (i: Item) => `${i.object === 'site-section' ? 'section' : 'group'} ${i.title}`;

/** The sections and groups of a level, in order, each movable up or down among them (`sortSiteStructure`). */
export function StructureList({ items, label, ctx }: { items: Item[]; label: string; ctx: Ctx }) {
  const uid = useId();
  const button = (item: string, dir: 'up' | 'down') => `${uid}-${item}-${dir}`;
  // The item moved, and where it was: once it is elsewhere, the focus goes back to its button (or the other one at
  // an end of the list, its own then disabled), not to the page.
  const [moved, setMoved] = useState<{ id: string; from: number; dir: 'up' | 'down' }>();
  useEffect(() => {
    if (!moved || items.findIndex((x) => x.id === moved.id) === moved.from) return;
    setMoved(undefined);
    const own = document.getElementById(button(moved.id, moved.dir)) as HTMLButtonElement | null;
    const other = document.getElementById(button(moved.id, moved.dir === 'up' ? 'down' : 'up'));
    (own && !own.disabled ? own : other)?.focus();
  });
  const move = (i: number, by: -1 | 1) => {
    const item = items[i];
    const next = items[i + by];
    if (!item || !next) return;
    setMoved({ id: item.id, from: i, dir: by < 0 ? 'up' : 'down' });
    const sibling = { type: next.object, id: next.id };
    ctx.run(
      () =>
        settingsApi.sortStructure(
          ctx.org,
          ctx.site,
          { type: item.object, id: item.id },
          by < 0 ? { before: sibling } : { after: sibling },
        ),
      `Moved ${nameOf(item)} ${by < 0 ? 'up' : 'down'}.`,
    );
  };
  return (
    <ul className="settings-list" aria-label={label}>
      {items.map((item, i) => {
        const buttons = (
          <>
            <button type="button" id={button(item.id, 'up')} disabled={i === 0} onClick={() => move(i, -1)}>
              Move up<span className="sr-only"> {nameOf(item)}</span>
            </button>
            <button
              type="button"
              id={button(item.id, 'down')}
              disabled={i === items.length - 1}
              onClick={() => move(i, 1)}
            >
              Move down<span className="sr-only"> {nameOf(item)}</span>
            </button>
          </>
        );
        return (
          <li key={item.id}>
            {item.object === 'site-section' ? (
              <SectionRow section={item} ctx={ctx} buttons={buttons} />
            ) : (
              <GroupRow group={item} ctx={ctx} buttons={buttons} />
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** A title field: its visible label, then (for screen readers only) what it names ("Title" " of section Guides"). */
function TitleField(props: {
  label: string;
  of?: string;
  value: string;
  max: number;
  min: number;
  onChange(v: string): void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        {props.label}
        {props.of && <span className="sr-only"> {props.of}</span>}
      </label>
      <input
        id={id}
        required
        minLength={props.min}
        maxLength={props.max}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

/** A section: its title and path (saved together), its group, its place, delete; then its spaces. */
function SectionRow({ section: s, ctx, buttons }: { section: SiteSection; ctx: Ctx; buttons: ReactNode }) {
  const { org, site, run } = ctx;
  const [title, setTitle] = useState(s.title);
  const [path, setPath] = useState(s.path);
  const id = useId();
  const changed = title.trim() !== s.title || path.trim() !== s.path;
  const save = (e: FormEvent) => {
    e.preventDefault();
    const body = {
      ...(title.trim() !== s.title ? { title: title.trim() } : {}),
      ...(path.trim() !== s.path ? { path: path.trim() } : {}),
    };
    run(() => settingsApi.updateSection(org, site, s.id, body), `Section ${title.trim()} saved.`);
  };
  const regroup = (group: string) => {
    const to = ctx.groups.find((g) => g.id === group);
    run(
      () => settingsApi.updateSection(org, site, s.id, { siteSectionGroupId: group || null }),
      to ? `Section ${s.title} moved into group ${to.title}.` : `Section ${s.title} moved out of its group.`,
    );
  };
  return (
    <>
      <form className="create" onSubmit={save} aria-label={`Section ${s.title}`}>
        <TitleField label="Title" of={`of section ${s.title}`} value={title} min={2} max={128} onChange={setTitle} />
        <div className="field">
          <label htmlFor={`${id}-p`}>
            Path<span className="sr-only"> of section {s.title}</span>
          </label>
          <input id={`${id}-p`} required maxLength={100} value={path} onChange={(e) => setPath(e.target.value)} />
        </div>
        <button type="submit" disabled={!changed}>
          Save<span className="sr-only"> section {s.title}</span>
        </button>
        {ctx.groups.length > 0 && (
          <SelectField
            id={`${id}-g`}
            label={
              <>
                Group<span className="sr-only"> of section {s.title}</span>
              </>
            }
            value={s.sectionGroup ?? ''}
            options={groupChoices(ctx.groups)}
            onChange={regroup}
          />
        )}
        {buttons}
        <Confirm
          label={`Delete section ${s.title}`}
          onConfirm={() => run(() => settingsApi.deleteSection(org, site, s.id), `Section ${s.title} deleted.`)}
        />
      </form>
      <span className="muted who">
        {s.default ? 'The default section. ' : ''}
        Spaces: {s.siteSpaces.map((x) => x.title).join(', ') || 'none'}
      </span>
    </>
  );
}

/**
 * A section group: rename, its place, the group it is in (GitBook nests groups), delete (its sections take its
 * place); then the sections and groups in it.
 */
function GroupRow({ group: g, ctx, buttons }: { group: SectionGroup; ctx: Ctx; buttons: ReactNode }) {
  const { org, site, run } = ctx;
  const [title, setTitle] = useState(g.title);
  const id = useId();
  const outside = groupsOutside(ctx.groups, g.id);
  const nest = (parent: string) => {
    const to = ctx.groups.find((x) => x.id === parent);
    run(
      () => settingsApi.moveGroup(org, site, g.id, parent || null),
      to ? `Group ${g.title} moved into group ${to.title}.` : `Group ${g.title} moved to the top level.`,
    );
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    run(() => settingsApi.renameGroup(org, site, g.id, title.trim()), `Group ${title.trim()} saved.`);
  };
  return (
    <div className="who team">
      <form className="create" onSubmit={save} aria-label={`Group ${g.title}`}>
        <TitleField label="Title of the group" of={g.title} value={title} min={1} max={100} onChange={setTitle} />
        <button type="submit" disabled={title.trim() === g.title}>
          Save<span className="sr-only"> group {g.title}</span>
        </button>
        {outside.length > 0 && (
          <SelectField
            id={`${id}-in`}
            label={
              <>
                Inside group<span className="sr-only"> (of group {g.title})</span>
              </>
            }
            value={g.sectionGroup ?? ''}
            options={groupChoices(outside)}
            onChange={nest}
          />
        )}
        {buttons}
        <Confirm
          label={`Delete group ${g.title}`}
          onConfirm={() => run(() => settingsApi.deleteGroup(org, site, g.id), `Group ${g.title} deleted.`)}
        />
      </form>
      {g.children.length > 0 ? (
        <StructureList items={g.children} label={`In group ${g.title}`} ctx={ctx} />
      ) : (
        <p className="muted">No section in this group yet: choose the group in a section's "Group".</p>
      )}
    </div>
  );
}

/** Creates a section group at the top level of the site or in a group (`addSectionGroupToSite`'s `parent`). */
export function GroupForm(props: {
  busy: boolean;
  groups: Ctx['groups'];
  onSubmit(title: string, parent: string): Promise<boolean>;
}) {
  const [title, setTitle] = useState('');
  const [parent, setParent] = useState('');
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await props.onSubmit(title.trim(), parent)) setTitle('');
  };
  return (
    <form className="create" onSubmit={submit} aria-label="Add a group of sections">
      <TitleField label="Title of the new group" value={title} min={1} max={100} onChange={setTitle} />
      {props.groups.length > 0 && (
        <SelectField
          id={`${id}-in`}
          label="Inside group"
          value={props.groups.some((g) => g.id === parent) ? parent : ''}
          options={groupChoices(props.groups)}
          onChange={setParent}
        />
      )}
      <button type="submit" disabled={props.busy}>
        Add group
      </button>
    </form>
  );
}
