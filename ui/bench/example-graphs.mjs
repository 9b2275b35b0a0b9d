// Regenerates bench/fixtures/example-graphs.json: the graph of every plan in designs/examples as
// the API draws it (`plan_graph`, POST /api/graph of a real `planwright serve`), and the English
// titles of the blocks they use (GET /api/catalog), which widen the nodes as in the studio.
//
//   cargo build -p planwright-cli   # once, or PLANWRIGHT_BIN=<a built planwright>
//   cd ui && node bench/example-graphs.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const repo = resolve(import.meta.dirname, '..', '..');
const binary = process.env.PLANWRIGHT_BIN ?? join(repo, 'target', 'debug', 'planwright');
const examples = join(repo, 'designs', 'examples');
const root = mkdtempSync(join(tmpdir(), 'planwright-graphs-'));
mkdirSync(join(root, 'workspace', 'designs'), { recursive: true });
const child = spawn(binary, ['serve', '--port', '0', '--workspace', join(root, 'workspace')], {
  env: { ...process.env, PLANWRIGHT_HOME: join(root, 'home'), PLANWRIGHT_KEYRING: 'off', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const url = await new Promise((ok, fail) => {
    child.once('exit', (code) => fail(new Error(`planwright serve exited with ${code} (binary: ${binary})`)));
    createInterface({ input: child.stdout }).once('line', (line) => ok(line.trim()));
  });
  const { origin } = new URL(url);
  const token = new URL(url).searchParams.get('token');
  const headers = { authorization: `Bearer ${token}`, origin, 'content-type': 'application/json' };
  const call = async (method, path, body) => {
    const res = await fetch(origin + path, { method, headers, body: body && JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const catalog = await call('GET', '/api/catalog');
  const titles = Object.fromEntries(catalog.map((b) => [b.id, b.title.en]));
  const plans = [];
  for (const file of readdirSync(examples).filter((f) => f.endsWith('.yaml')).sort()) {
    const graph = await call('POST', '/api/graph', { text: readFileSync(join(examples, file), 'utf8') });
    plans.push({ name: file.replace(/\.yaml$/, ''), graph });
  }
  const used = new Set(plans.flatMap((p) => p.graph.nodes.map((n) => n.block).filter(Boolean)));
  const out = { titles: Object.fromEntries(Object.entries(titles).filter(([id]) => used.has(id)).sort()), plans };
  writeFileSync(join(import.meta.dirname, 'fixtures', 'example-graphs.json'), JSON.stringify(out, null, 1) + '\n');
  console.log(`${plans.length} example graphs, ${plans.reduce((s, p) => s + p.graph.nodes.length, 0)} nodes`);
} finally {
  child.kill('SIGTERM');
  rmSync(root, { recursive: true, force: true });
}
