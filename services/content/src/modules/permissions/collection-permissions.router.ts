import { grantProcedures } from './grants.router.ts';

const grants = grantProcedures('collection');

/**
 * Explicit roles on a collection: GitBook's `inviteToCollection`, `list…PermissionsInCollection`, `update…`,
 * `remove…FromCollection`. A collection's grants reach the content inheriting from it.
 */
export const collectionPermissionProcedures = {
  inviteToCollection: grants.invite,
  listUserPermissionsInCollection: grants.listUsers,
  listTeamPermissionsInCollection: grants.listTeams,
  updateUserPermissionInCollection: grants.updateUser,
  updateTeamPermissionInCollection: grants.updateTeam,
  removeUserFromCollection: grants.removeUser,
  removeTeamFromCollection: grants.removeTeam,
  listPermissionsAggregateInCollection: grants.aggregate,
};
