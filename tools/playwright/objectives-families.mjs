// The reference scripts of the task families added for effects done once and ordinary steps (tasks.json): each task by id, (page, task, context) → { passed, extracted },
// as in objectives.mjs.
export const scripts = {};
