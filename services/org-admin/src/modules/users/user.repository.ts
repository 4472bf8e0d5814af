import { notFound, type EntityManager } from '@quire/kit';
import { Membership } from '../organizations/organization.entity.ts';
import { User, type IUser } from './user.entity.ts';

/** Queries of the user table. */
export const userRepository = {
  /** A user, 404 when there is none. */
  async findOrThrow(em: EntityManager, id: string): Promise<IUser> {
    const user = await em.findOne(User, { id });
    if (!user) throw notFound('User');
    return user;
  },

  /** The organizations a user is a member of (guest memberships included). */
  async organizationsOf(em: EntityManager, userId: string): Promise<string[]> {
    const memberships = await em.find(Membership, { userId }, { fields: ['organizationId'] });
    return memberships.map((m) => m.organizationId);
  },

  /** The users among `ids` (each once; unknown ids are left out). */
  async findByIds(em: EntityManager, ids: string[]): Promise<IUser[]> {
    return ids.length ? em.find(User, { id: { $in: [...new Set(ids)] } }) : [];
  },
};
