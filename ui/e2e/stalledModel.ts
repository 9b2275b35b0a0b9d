// A studio whose model never answers a chat completion (embeddings are answered at once), so
// that a generation waits at the model's first stage until it is cancelled.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from './studio';

/**
 * The one stand-in: a model server that answers embeddings at once and never answers a chat
 * completion, so that a generation waits at the model's first stage until it is cancelled.
 */
export const withStalledModel = test.extend({
  serveEnv: async ({}, use) => {
    const model: Server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (!request.url?.endsWith('/embeddings')) return; // a chat completion is left unanswered
        const input = (JSON.parse(body) as { input: string | string[] }).input;
        const texts = Array.isArray(input) ? input : [input];
        const data = texts.map((text, index) => ({ object: 'embedding', index, embedding: [text.length, 1] }));
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ object: 'list', data, model: 'e2e', usage: { prompt_tokens: 1, total_tokens: 1 } }));
      });
    });
    await new Promise<void>((ok) => model.listen(0, '127.0.0.1', ok));
    await use({ OPENAI_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`, OPENAI_API_KEY: 'sk-e2e' });
    model.closeAllConnections();
    model.close();
  },
});

