// The fixture web sites (`planwright sites`, assets/sites) for end-to-end runs of browser steps:
// one server per worker on free ports; its first output line is the address of its index page.
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { test as studioTest } from './studio';

const repo = resolve(import.meta.dirname, '..', '..');
const binary = process.env.PLANWRIGHT_BIN ?? join(repo, 'target', 'debug', 'planwright');

export interface Sites {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  origin: string;
}

async function startSites(): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(binary, ['sites', '--port', '0', '--other-port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('planwright sites printed no address within 20 s')), 20_000);
    child.once('exit', (code) => fail(new Error(`planwright sites exited with ${code} (binary: ${binary})`)));
    lines.once('line', (line) => {
      clearTimeout(timer);
      ok(line.trim());
    });
  });
  // Keep reading, so the server never blocks on a full pipe.
  lines.on('line', () => undefined);
  return { child, origin: new URL(first).origin };
}

export const test = studioTest.extend<object, { sites: Sites }>({
  sites: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { child, origin } = await startSites();
      await use({ origin });
      child.kill('SIGTERM');
    },
    { scope: 'worker' },
  ],
});

export { expect } from './studio';
