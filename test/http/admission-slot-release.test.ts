import { EventEmitter } from "node:events";
import type { Response } from "express";
import type { Admitted } from "../../src/http/admission";
import { holdSlot } from "../../src/http/door-guards";

/**
 * SG-LOAD: an admission slot is held until the answer is sent or the caller leaves. A caller that
 * left while it waited in the lane's queue (a reloaded page aborts its fetches) has had its
 * "close" already; its slot is released at once, not lost (lost slots turned a busy principal's
 * every later request into a 429: seen as a ledger page that never went live after a reload).
 */
function response(state: { destroyed: boolean; socket: { destroyed: boolean } | null }): Response {
  return Object.assign(new EventEmitter(), state, { locals: {} }) as unknown as Response;
}

const entry = (release: () => void): Admitted => ({ admitted: true, release, waitAside: (wait) => wait() });

describe("SG-LOAD: the admission slot of a caller who left is released", () => {
  it("releases at once when the caller left while it waited, and tells the door not to go on", () => {
    for (const gone of [
      { destroyed: true, socket: { destroyed: true } },
      { destroyed: false, socket: null },
      { destroyed: false, socket: { destroyed: true } },
    ]) {
      const release = jest.fn();
      expect(holdSlot(response(gone), entry(release))).toBe(false);
      expect(release).toHaveBeenCalledTimes(1);
    }
  });

  it("holds the slot of a caller still there until its response closes, and releases it once", () => {
    const release = jest.fn();
    const res = response({ destroyed: false, socket: { destroyed: false } });
    expect(holdSlot(res, entry(release))).toBe(true);
    expect(release).not.toHaveBeenCalled();
    (res as unknown as EventEmitter).emit("close");
    (res as unknown as EventEmitter).emit("close");
    expect(release).toHaveBeenCalledTimes(1);
  });
});
