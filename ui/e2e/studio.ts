// The fixture every end-to-end test uses: a real `planwright serve` on a free port, with its own
// data home and workspace (seeded with the plans a test needs), and Debian's Chromium opened on
// the URL it printed (the token becomes a cookie on that first request).
import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const repo = resolve(import.meta.dirname, '..', '..');
const binary = process.env.PLANWRIGHT_BIN ?? join(repo, 'target', 'debug', 'planwright');

export interface Studio {
  url: string;
  origin: string;
  workspace: string;
}

async function startServe(workspace: string, home: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(binary, ['serve', '--port', '0', '--workspace', workspace, '--ui', join(repo, 'ui', 'dist')], {
    env: { ...process.env, PLANWRIGHT_HOME: home, PLANWRIGHT_KEYRING: 'off', OPENAI_API_KEY: '', AZURE_OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('planwright serve printed no URL within 20 s')), 20_000);
    child.once('exit', (code) => fail(new Error(`planwright serve exited with ${code} (binary: ${binary})`)));
    lines.once('line', (line) => {
      clearTimeout(timer);
      ok(line.trim());
    });
  });
  return { child, url };
}

/**
 * `plans`: files to put under the workspace's `designs/` first (a path may have folders:
 * `templates/test/x.yaml`); `serveEnv`: environment for `planwright serve` (a model server's
 * address, say).
 */
export const test = base.extend<{ plans: Record<string, string>; serveEnv: Record<string, string>; studio: Studio }>({
  plans: [{}, { option: true }],
  serveEnv: [{}, { option: true }],
  studio: async ({ page, plans, serveEnv }, use) => {
    const root = mkdtempSync(join(tmpdir(), 'planwright-e2e-'));
    const workspace = join(root, 'workspace');
    mkdirSync(join(workspace, 'designs'), { recursive: true });
    for (const [file, text] of Object.entries(plans)) {
      mkdirSync(dirname(join(workspace, 'designs', file)), { recursive: true });
      writeFileSync(join(workspace, 'designs', file), text);
    }
    const { child, url } = await startServe(workspace, join(root, 'home'), serveEnv);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{16,}$/);
    await page.goto(url);
    await use({ url, origin: new URL(url).origin, workspace });
    child.kill('SIGTERM');
    rmSync(root, { recursive: true, force: true });
  },
});

/**
 * Replaces the editor's text, inserted as one input (typing key by key would auto-indent). On a
 * loaded machine the select-all can land before the editor has the focus and delete one character
 * only: the text is emptied until it is empty, then the new text goes in.
 */
export async function typePlan(page: Page, text: string) {
  const content = page.locator('.cm-content');
  await content.click();
  await expect(async () => {
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    expect((await content.innerText()).trim()).toBe('');
  }).toPass();
  await page.keyboard.insertText(text);
}

export { expect };
