import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { decorativeIcons } from './build-plugins/decorativeIcons';
import { libraryLabels } from './build-plugins/libraryLabels';
import { precompress } from './build-plugins/precompress';
import { shellChunk } from './build-plugins/shellChunk';

const api = process.env.HUBLINK_API ?? 'http://localhost:8080';

/** The console's shell and the sign-in page: one chunk for their shared code (see shellChunk). */
const shell = shellChunk(['src/main.tsx', 'src/app/start.tsx', 'src/features/auth/LoginPage.tsx']);

export default defineConfig({
  plugins: [react(), decorativeIcons(), libraryLabels(), shell.plugin, precompress()],
  base: '/',
  server: {
    port: 5173,
    proxy: { '/api': { target: api, ws: true, changeOrigin: true } },
  },
  // The manifest tells the size check (e2e/signInSize.spec.ts) which chunks the sign-in route loads.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    manifest: true,
    rolldownOptions: { output: { codeSplitting: { groups: [shell.group] } } },
  },
});
