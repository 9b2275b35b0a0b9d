// The measurements under bench/ (`npm run bench:graph`), kept out of `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['bench/**/*.measure.ts'],
    environment: 'node',
  },
});
