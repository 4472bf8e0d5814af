import { ops } from '@quire/contracts';
import type { ContentContext } from '../../trpc.ts';
import { codeRanges } from '@quire/document/model';

/** `@[Label](user-id)`: a text "@" followed by a link whose URL is a user id (no spaces, no parentheses). */
const MENTION = /@\[([^\]\n]*)\]\(([^()\s]+)\)/g;

/** The mentions of a body outside code, with where they stand. */
function mentionsIn(markdown: string): RegExpExecArray[] {
  const code = codeRanges(markdown);
  return [...markdown.matchAll(MENTION)].filter((m) => !code.some(([start, end]) => m.index >= start && m.index < end));
}

/** The ids mentioned in a markdown body (outside code), once each, in order of first mention. */
export function mentionedIds(markdown: string): string[] {
  return [...new Set(mentionsIn(markdown).map((m) => m[2]!))];
}

export interface ResolvedBody {
  /** The markdown as stored: members' mentions in the canonical `@[Label](user-id)`, the others as plain `@Label`. */
  markdown: string;
  /** The members mentioned, once each, in order of first mention. */
  mentions: string[];
}

/** Keeps the mentions of `members` (canonical form) and turns the others into plain text. */
export function applyMentions(markdown: string, members: ReadonlySet<string>): ResolvedBody {
  const mentions = new Set<string>();
  let out = '';
  let at = 0;
  for (const m of mentionsIn(markdown)) {
    const [all, label, id] = m as unknown as [string, string, string];
    out += markdown.slice(at, m.index) + (members.has(id) ? `@[${label}](${id})` : `@${label}`);
    if (members.has(id)) mentions.add(id);
    at = m.index + all.length;
  }
  return { markdown: out + markdown.slice(at), mentions: [...mentions] };
}

/** Resolves the mentions of a body against the members of the organization (org-admin, one call; none when nothing is mentioned). */
export async function resolveMentions(
  ctx: Pick<ContentContext, 'peers' | 'requestId'>,
  organizationId: string,
  markdown: string,
): Promise<ResolvedBody> {
  const ids = mentionedIds(markdown)
    .filter((id) => id.length <= 100)
    .slice(0, 1000);
  if (!ids.length) return applyMentions(markdown, new Set());
  const { items } = await ctx.peers.asService(ops.getMembersByIds, { organizationId, ids }, ctx.requestId);
  return applyMentions(markdown, new Set(items.map((m) => m.id)));
}
