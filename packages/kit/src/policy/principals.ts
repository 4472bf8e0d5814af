/** Who an explicit role is given to: a user or a team, by id. */
export interface Principal {
  kind: 'user' | 'team';
  id: string;
}

/** The principals an invitation names (`users`, then `teams`), each once. */
export const principalsOf = (names: {
  users?: readonly string[] | undefined;
  teams?: readonly string[] | undefined;
}): Principal[] => [
  ...[...new Set(names.users ?? [])].map((id) => ({ kind: 'user' as const, id })),
  ...[...new Set(names.teams ?? [])].map((id) => ({ kind: 'team' as const, id })),
];
