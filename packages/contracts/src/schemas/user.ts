import { z } from 'zod';
import { UrlSchema } from '../common.ts';

export const UserSchema = z
  .object({
    object: z.literal('user').describe('Always `user`'),
    id: z.string().describe('Unique identifier of the user'),
    displayName: z.string().describe('Full name of the user'),
    email: z.string().optional().describe('E-mail address of the user'),
    photoURL: z.string().optional().describe("URL of the user's profile picture"),
    urls: z.object({ location: UrlSchema.describe('URL of the user in the API') }),
  })
  .describe('User');
export type User = z.infer<typeof UserSchema>;
