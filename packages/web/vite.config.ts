import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { decorativeIcons } from './build-plugins/decorativeIcons';
import { libraryLabels } from './build-plugins/libraryLabels';
import { precompress } from './build-plugins/precompress';

const api = process.env.HUBLINK_API ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react(), decorativeIcons(), libraryLabels(), precompress()],
  base: '/',
  server: {
    port: 5173,
    proxy: { '/api': { target: api, ws: true, changeOrigin: true } },
  },
  // The manifest tells the size check (src/app/signInSize.test.ts) which chunks the sign-in route loads.
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000, manifest: true },
});
