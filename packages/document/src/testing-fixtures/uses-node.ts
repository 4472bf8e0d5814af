// A module the browser bundling test must refuse (it proves the check can fail): it imports a Node built-in.
import { createHash } from 'node:crypto';

export const digest = (text: string): string => createHash('sha256').update(text).digest('hex');
