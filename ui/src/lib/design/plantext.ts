// Small pure helpers on a plan's YAML text: the plan a new design starts from, and its id.
// Edits of the text are made in Rust on the parsed document (`api.editPlan`), never here.

/**
 * The text a new plan starts from. It must validate, so a new user does not start with an error:
 * docs/plan-format.md section 3 requires `apiVersion`, `id`, `version` and a `graph` list; one
 * `report.write` node (its required inputs `data` and `path` given) makes it a plan that runs and
 * shows where steps go. (A bare `graph:` is null, not a list: `invalid_type`.)
 */
export const STARTER_PLAN = `apiVersion: planwright/v1
id: new_plan
version: 0.1.0
description: What this automation does, in a sentence.
graph:
  - id: write_report
    description: A first step to replace with your own; it writes a small report.
    block: report.write
    in:
      data: {message: Replace this step with the first step of your automation.}
      format: markdown
      path: out/new_plan.md
`;

/** The same plan with its words in Japanese, for a studio shown in Japanese. */
export const STARTER_PLAN_JA = `apiVersion: planwright/v1
id: new_plan
version: 0.1.0
description: この自動化が何をするかを一文で。
graph:
  - id: write_report
    description: 最初のステップの例です。自分のステップに置き換えてください（小さなレポートを書き出します）。
    block: report.write
    in:
      data: {メッセージ: このステップを自動化の最初のステップに置き換えてください。}
      format: markdown
      path: out/new_plan.md
`;

/** The plan a new design starts from, in the studio's language. */
export function starterPlan(lang: 'en' | 'ja'): string {
  return lang === 'ja' ? STARTER_PLAN_JA : STARTER_PLAN;
}

/** The `id` of the plan, when it can be read. */
export function planId(text: string): string | null {
  const m = /^id:\s*["']?([A-Za-z0-9_.-]+)/m.exec(text);
  return m ? m[1]! : null;
}
