// The run's coded messages (`RunMessage`, `run.said.<key>` in the catalogs) in both languages.
// Their words live beside the Rust enum, in crates/runs/messages/, because the run's reports
// (written in Rust) say them too: one text per message for the studio and the reports.
import runEn from '../../../../crates/runs/messages/en.json' with { type: 'json' };
import runJa from '../../../../crates/runs/messages/ja.json' with { type: 'json' };

type RunSaid = { readonly [K in keyof typeof runEn as `run.said.${K & string}`]: string };

function prefixed(words: Record<string, string>): RunSaid {
  return Object.fromEntries(Object.entries(words).map(([key, text]) => [`run.said.${key}`, text])) as RunSaid;
}

export const runSaidEn = prefixed(runEn);
export const runSaidJa = prefixed(runJa);
