// Reactions on comments and replies (GitBook's `reactions`: an emoji, its count and who reacted), in words, and the
// update that adds or takes away the caller's reaction (`addedReactions` / `removedReactions` of the comment's or
// reply's `PUT`).
import type { Comment } from '../../api/changes.ts';

export type Reaction = Comment['reactions'][number];

/**
 * The emojis the "Add reaction" menu offers. The API takes any one Unicode emoji (`ReactionEmojiSchema`); the menu
 * offers GitHub's eight, named for screen readers. A reaction with another emoji (posted through the API) is shown,
 * and toggled, like these.
 */
export const REACTION_CHOICES: readonly { emoji: string; name: string }[] = [
  { emoji: '👍', name: 'Thumbs up' },
  { emoji: '👎', name: 'Thumbs down' },
  { emoji: '😄', name: 'Laugh' },
  { emoji: '🎉', name: 'Hooray' },
  { emoji: '😕', name: 'Confused' },
  { emoji: '❤️', name: 'Heart' },
  { emoji: '🚀', name: 'Rocket' },
  { emoji: '👀', name: 'Eyes' },
];

/** Did this user react with it. */
export const reactedBy = (r: Reaction, me: string | undefined): boolean =>
  me !== undefined && r.users.some((u) => u.user.id === me);

/** The toggle's name: "👍 2, you reacted", or "👍 2". */
export const reactionLabel = (r: Reaction, me: string | undefined): string =>
  `${r.emoji} ${r.count}${reactedBy(r, me) ? ', you reacted' : ''}`;

/** Who reacted, first first, the caller as "you": "you and Bob", "Ann, Bob and Cleo". */
export function whoReacted(r: Reaction, me: string | undefined): string {
  const names = r.users.map((u) => (u.user.id === me ? 'you' : u.user.displayName));
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The body of the `PUT` that toggles the caller's reaction with this emoji. */
export const toggleBody = (emoji: string, mine: boolean) =>
  mine ? { removedReactions: [emoji] } : { addedReactions: [emoji] };
