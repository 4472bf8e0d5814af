import type { User as UserDto } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import type { IUser } from './user.entity.ts';

export function presentUser(ctx: { urls: PublicUrls }, u: IUser): UserDto {
  return {
    object: 'user',
    id: u.id,
    displayName: u.displayName,
    email: u.email,
    ...(u.photoURL ? { photoURL: u.photoURL } : {}),
    urls: { location: ctx.urls.api(`/users/${u.id}`) },
  };
}
