import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// During development, `PLANWRIGHT_URL` points the dev server's proxy at a running
// `planwright serve` (the URL it printed, token included); see README.md. The proxy sends the
// token as a bearer header and the server's own Host and Origin, so its checks pass.
const served = process.env.PLANWRIGHT_URL ? new URL(process.env.PLANWRIGHT_URL) : null;
const target = served?.origin;
const token = served?.searchParams.get('token') ?? '';

export default defineConfig({
  plugins: [svelte()],
  clearScreen: false,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1200,
  },
  server: {
    // The run messages' words live beside their Rust enum (src/lib/i18n/runSaid.ts).
    fs: { allow: ['.', '../crates/runs/messages'] },
    proxy: target
      ? {
          '/api': {
            target,
            changeOrigin: true,
            ws: true,
            headers: { origin: target!, ...(token ? { authorization: `Bearer ${token}` } : {}) },
          },
        }
      : undefined,
  },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
