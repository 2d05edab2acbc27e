/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';

// The dev server proxies the API to a server started with `make run` (or `parley serve`).
const apiTarget = process.env.PARLEY_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    // The worker is our own src/sw.ts (offline outbox, push); the plugin builds it and injects
    // the precache list of the app shell, locales included, so the app opens offline.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      // Installable: Chromium wants the name, a start URL, standalone display and 192/512 icons
      // (drawn in icons/parley.svg, rendered by icons/render-icons.mjs).
      manifest: {
        id: '/whatsapp',
        name: 'Parley',
        short_name: 'Parley',
        description: 'The business inbox for WhatsApp',
        start_url: '/whatsapp',
        scope: '/',
        display: 'standalone',
        background_color: '#111b21',
        theme_color: '#00a884',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,mjs,css,html,svg,png,ico,json,webmanifest}'],
        // pdf.js and its worker (PDF thumbnails, 1.6 MB) are cached by the worker when first used.
        globIgnores: ['**/node_modules/**', 'assets/pdf-*.js', 'assets/pdf.worker*.mjs'],
        rollupFormat: 'iife',
      },
    }),
    // Hashed assets also as .br and .gz beside each file: the server sends the one the browser
    // accepts (server/src/web_app.rs). The manifest lists the sign-in page's chunks for the
    // first-load budget (scripts/first-load.mjs).
    compression({ include: /assets\/.+\.(js|mjs|css)$/, algorithms: ['brotliCompress', 'gzip'] }),
  ],
  build: { manifest: true },
  server: {
    proxy: {
      '/api': { target: apiTarget, ws: true },
      '/identity': { target: apiTarget },
      '/sandbox': { target: apiTarget },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
