import type { Timer } from "../../src/http/admission-pacing";

/** A hand-moved clock whose timers fire when it is moved past them: no test waits for time. */
export function manualTime(): { now: () => number; timer: Timer; advance(ms: number): void } {
  let t = 0;
  let timers: { at: number; run: () => void }[] = [];
  return {
    now: () => t,
    timer: (run, ms) => void timers.push({ at: t + ms, run }),
    advance(ms) {
      t += ms;
      const due = timers.filter((x) => x.at <= t).sort((a, b) => a.at - b.at);
      timers = timers.filter((x) => x.at > t);
      for (const x of due) x.run();
    },
  };
}
