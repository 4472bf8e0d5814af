import { notFound, type EntityManager } from '@quire/kit';
import { User, type IUser } from './user.entity.ts';

/** Queries of the user table. */
export const userRepository = {
  /** A user, 404 when there is none. */
  async findOrThrow(em: EntityManager, id: string): Promise<IUser> {
    const user = await em.findOne(User, { id });
    if (!user) throw notFound('User');
    return user;
  },

  /** The users among `ids` (each once; unknown ids are left out). */
  async findByIds(em: EntityManager, ids: string[]): Promise<IUser[]> {
    return ids.length ? em.find(User, { id: { $in: [...new Set(ids)] } }) : [];
  },
};
