import type { TranslationSettings as TranslationSettingsDto } from '@quire/contracts';
import { newId, type EntityManager } from '@quire/kit';
import { TranslationSettings, type ITranslationSettings } from '../modules/translations/translation-settings.entity.ts';

type Languages = TranslationSettingsDto['languages'];

export function translationCreator(
  em: EntityManager,
  props: { organizationId: string; title: string; languages?: Languages | undefined },
): ITranslationSettings {
  const now = new Date();
  return em.create(TranslationSettings, {
    id: newId(),
    organizationId: props.organizationId,
    title: props.title,
    languages: props.languages ?? [],
    createdAt: now,
    updatedAt: now,
  });
}

/** Sets the title, and the languages when given. */
export function translationUpdater(
  em: EntityManager,
  props: { settings: ITranslationSettings; title: string; languages?: Languages | undefined },
): ITranslationSettings {
  const t = props.settings;
  t.title = props.title;
  if (props.languages !== undefined) t.languages = props.languages;
  t.updatedAt = new Date();
  em.persist(t);
  return t;
}

export function translationDeleter(em: EntityManager, { settings }: { settings: ITranslationSettings }): void {
  em.remove(settings);
}
