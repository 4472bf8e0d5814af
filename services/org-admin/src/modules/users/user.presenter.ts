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

/** A user as a caller sees it: everything, or without its e-mail address (a published site's reader). */
export function presentUserAs(ctx: { urls: PublicUrls }, u: IUser, shows: { email: boolean }): UserDto {
  const { email, ...shown } = presentUser(ctx, u);
  return shows.email ? { ...shown, email } : shown;
}
