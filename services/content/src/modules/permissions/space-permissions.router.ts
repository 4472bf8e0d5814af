import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { grantProcedures } from './grants.router.ts';
import { loadTeamSpaceCounts } from './team-spaces.ts';

const grants = grantProcedures('space');

/** Explicit roles on a space: GitBook's `inviteToSpace`, `list…PermissionsInSpace`, `update…`, `remove…FromSpace`. */
export const spacePermissionProcedures = {
  inviteToSpace: grants.invite,
  listUserPermissionsInSpace: grants.listUsers,
  listTeamPermissionsInSpace: grants.listTeams,
  updateUserPermissionInSpace: grants.updateUser,
  updateTeamPermissionInSpace: grants.updateTeam,
  removeUserFromSpace: grants.removeUser,
  removeTeamFromSpace: grants.removeTeam,
  listPermissionsAggregateInSpace: grants.aggregate,

  countTeamSpaces: implement(ops.countTeamSpaces, ({ input, ctx }) => loadTeamSpaceCounts(ctx.em, input)),
};
