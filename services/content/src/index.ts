export { contentService, contentRouter } from './service.ts';
export { loadContentConfig, ContentEnvShape, type ContentConfig } from './env.ts';
