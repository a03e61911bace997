import { GroupCommit } from "../../src/store/group-commit";
import { createLogger } from "../../src/logger";

const logger = createLogger("silent");

describe("GroupCommit: the governed store's off-path writes (issue 11 §7)", () => {
  it("issue-11 §7: what is added while a write is in flight goes together in the next write, after the current tick", async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const commits = new GroupCommit<number>("test", logger, async (items) => {
      writes.push([...items]);
      if (writes.length === 1) await gate;
    });
    const first = commits.add(1);
    expect(writes).toEqual([]); // nothing is written in the adding request's own tick
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [2, 3, 4].map((n) => commits.add(n));
    release();
    await Promise.all([first, ...rest]);
    expect(writes).toEqual([[1], [2, 3, 4]]);
  });

  it("issue-11 §7: a failed write is retried; one that keeps failing rejects its callers and the queue goes on", async () => {
    let calls = 0;
    const commits = new GroupCommit<string>(
      "test",
      logger,
      async (items) => {
        calls++;
        if (items.includes("never")) throw new Error("closed");
        if (calls === 1) throw new Error("transient");
      },
      (error) => error instanceof Error && error.message === "closed",
    );
    await expect(commits.add("once")).resolves.toBeUndefined();
    expect(calls).toBe(2);
    await expect(commits.add("never")).rejects.toThrow("closed");
    await expect(commits.add("after")).resolves.toBeUndefined();
  });

  it("issue-11 §7: back-pressure: past the backlog, room() waits until a write has made progress", async () => {
    let release!: () => void;
    let gate = new Promise<void>((resolve) => (release = resolve));
    const commits = new GroupCommit<number>(
      "test",
      logger,
      () => gate,
      () => false,
      3,
    );
    const added = [1, 2, 3].map((n) => commits.add(n));
    let roomy = false;
    const waiting = commits.room().then(() => (roomy = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(roomy).toBe(false);
    const first = release;
    gate = Promise.resolve();
    first();
    await waiting;
    expect(roomy).toBe(true);
    await Promise.all(added);
    await commits.idle();
  });
});
