import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.HUBLINK_API ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  base: '/',
  server: {
    port: 5173,
    proxy: { '/api': { target: api, ws: true, changeOrigin: true } },
  },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
