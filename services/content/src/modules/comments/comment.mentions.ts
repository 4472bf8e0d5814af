import { ops } from '@quire/contracts';
import type { ContentContext } from '../../trpc.ts';

/** `@[Label](user-id)`: a text "@" followed by a link whose URL is a user id (no spaces, no parentheses). */
const MENTION = /@\[([^\]\n]*)\]\(([^()\s]+)\)/g;

/** The ids mentioned in a markdown body, once each, in order of first mention. */
export function mentionedIds(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(MENTION)].map((m) => m[2]!))];
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
  const out = markdown.replace(MENTION, (_all, label: string, id: string) => {
    if (!members.has(id)) return `@${label}`;
    mentions.add(id);
    return `@[${label}](${id})`;
  });
  return { markdown: out, mentions: [...mentions] };
}

/** Resolves the mentions of a body against the members of the organization (org-admin, one call; none when nothing is mentioned). */
export async function resolveMentions(ctx: Pick<ContentContext, 'peers' | 'requestId'>, organizationId: string, markdown: string): Promise<ResolvedBody> {
  const ids = mentionedIds(markdown).filter((id) => id.length <= 100).slice(0, 1000);
  if (!ids.length) return applyMentions(markdown, new Set());
  const { items } = await ctx.peers.asService(ops.getMembersByIds, { organizationId, ids }, ctx.requestId);
  return applyMentions(markdown, new Set(items.map((m) => m.id)));
}
