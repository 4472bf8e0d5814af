import { SecretBox, type EntityManager } from '@quire/kit';
import { integrationRepository } from '../modules/integrations/integration.repository.ts';
import { secretsAad } from './integration-publisher.ts';

/**
 * Re-encrypts one integration's secrets under the box's current key (after a rotation): 'resealed', 'current'
 * when they already are (or are gone), 'unknown-key' when no configured key opens them (left as they are).
 */
export async function secretsResealer(
  em: EntityManager,
  { name, box }: { name: string; box: SecretBox },
): Promise<'resealed' | 'current' | 'unknown-key'> {
  const sealed = await integrationRepository.lockSecrets(em, name);
  if (sealed === null || SecretBox.keyIdOf(sealed) === box.keyId) return 'current';
  if (!box.canOpen(sealed)) return 'unknown-key';
  await integrationRepository.updateSecrets(em, name, box.seal(box.open(sealed, secretsAad(name)), secretsAad(name)));
  return 'resealed';
}
