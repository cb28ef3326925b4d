/**
 * The staff panel's build: served under `/admin/` (by `npm start` from `dist/`, and by the Web stack's
 * StaticSite). `npm run dev:admin` runs this dev server with `/api` proxied to the local API
 * (`http://localhost:${PORT:-3000}`, PORT from the shell or, as `npm start` reads it, the repository's `.env`); the proxy sets `Origin` to the API's own origin, because the admin API
 * refuses unsafe methods from any other origin.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The repository's `.env`, which `npm start` loads (packages/local/src/main.ts): its PORT is the API's. */
const rootEnv = new URL('../../.env', import.meta.url);
const fromDotEnv = existsSync(rootEnv) ? parseEnv(readFileSync(rootEnv, 'utf8')).PORT : undefined;
const api = `http://localhost:${process.env.PORT || fromDotEnv || 3000}`;

export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  resolve: {
    // The root node_modules also holds React 18 (for sst's terminal UI): always take this package's copies.
    dedupe: ['react', 'react-dom', 'react-router', 'react-router-dom', '@emotion/react', '@emotion/styled', '@mui/material'],
  },
  server: {
    port: Number(process.env.ADMIN_DEV_PORT || 5173),
    proxy: {
      '/api': {
        target: api,
        configure: (proxy) => {
          proxy.on('proxyReq', (request) => {
            if (request.getHeader('origin')) request.setHeader('origin', api);
          });
        },
      },
    },
  },
  // dist/ mirrors the URL space: dist/admin/index.html is /admin/ (npm start serves dist/admin, the Web
  // stack uploads dist/ as it is).
  build: { outDir: 'dist/admin', emptyOutDir: true, chunkSizeWarningLimit: 2500 },
});
