// A page's cover is drawn by code the app's Page screen shares: packages/document/src/render/cover.ts.
export { COVER_HEIGHT, coverHtml, coverOf, coverPositionY, type PageCover } from '@quire/document/render';
