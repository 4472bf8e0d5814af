export { sitesService, sitesRouter } from './service.ts';
export { loadSitesConfig, SitesEnvShape, type SitesConfig } from './env.ts';
export { ContentSpace } from './modules/spaces/content-space.entity.ts';
export { spaceEventsConsumer } from './modules/spaces/space-events.consumer.ts';
export { BUNDLED_FONTS, fontFiles, type BundledFont } from './modules/published/render/fonts.ts';
export { ICON_URL_PREFIX, iconFile, iconName, iconUrl } from './modules/published/render/icons.ts';
