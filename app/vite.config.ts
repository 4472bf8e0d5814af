import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the gateway under /_quire/app/ (gateway/src/web-app.ts); every screen is its own chunk.
export default defineConfig({
  base: '/_quire/app/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No inline polyfill script: the CSP allows scripts from this origin only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
