// The studio's one cache of run artifacts, fetched through the API (see artifacts.ts).
import { api } from '../api/transport';
import { createArtifactCache } from './artifacts';

export const artifacts = createArtifactCache((runId, path) => api.runArtifact(runId, path));
