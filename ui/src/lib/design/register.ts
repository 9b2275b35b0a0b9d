// Registering twice in one minute: a registered plan's file name carries the minute it was
// registered (designs/<plan_id>_<yyyymmddHHMM>.yaml) and is never overwritten, so a second,
// different text in the same minute is registered at the start of the next one.

/** How long until the next minute starts (plus a margin for the clocks), and that minute as HH:MM. */
export function nextMinute(now: Date, marginMs = 1500): { ms: number; at: Date } {
  const at = new Date(now.getTime());
  at.setSeconds(0, 0);
  at.setMinutes(at.getMinutes() + 1);
  return { ms: at.getTime() - now.getTime() + marginMs, at };
}
