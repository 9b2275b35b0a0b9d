// The reference scripts of the held-out tasks (heldout.json), written before the runner was tuned: each task by id, (page, task, context) → { passed, extracted },
// as in objectives.mjs.
export const scripts = {};
