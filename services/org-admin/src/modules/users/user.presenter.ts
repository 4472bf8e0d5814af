import type { User as UserDto } from '@quire/contracts';
import type { IUser } from './user.entity.ts';

export function presentUser(u: IUser, publicUrl: string): UserDto {
  return {
    object: 'user',
    id: u.id,
    displayName: u.displayName,
    email: u.email,
    ...(u.photoURL ? { photoURL: u.photoURL } : {}),
    urls: { location: `${publicUrl}/v1/users/${u.id}` },
  };
}

/** A display name from an e-mail when none is given: `jane.doe@x.io` → `jane.doe`. */
export const nameFromEmail = (email: string) => email.split('@')[0] || email;
