import { copyFileSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ManualClock } from "../../src/clock";
import { loadBundle } from "../../src/policy/bundle";
import { leaseId, REAUDIT_LEASES } from "../../src/store/log/reaudit";
import { eventsOf, STORE } from "../audit/support";
import { POLICY_BUNDLE, startTestGateway, type TestGateway } from "../support/gateway";
import { preference } from "../support/governed";
import { PHRASE, reauditDone, tightenedBundle } from "./support";

/**
 * Every gateway process loads the same bundle and starts a walk: the tenant's walk lease lets
 * one of them judge each object, so each refused object has one quarantine event and the
 * progress counts one walk; a lease its holder let expire is taken over.
 */
describe("MP-BREAK MP-LOG: two gateways loading one tightened bundle walk each tenant once (issue 13 item 5)", () => {
  const clock = new ManualClock("2026-09-03T09:00:00.000Z");
  const bundles: string[] = [];
  let first: TestGateway;
  let second: TestGateway;
  let third: TestGateway | undefined;
  let agent: string;
  let admin: string;

  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "memgate-rejudge-walkers-"));
    for (const name of ["first", "second"]) {
      bundles.push(path.join(dir, `${name}.tar.gz`));
      copyFileSync(POLICY_BUNDLE, bundles.at(-1)!);
    }
    first = await startTestGateway({ clock, env: { MEMGATE_POLICY_BUNDLE: bundles[0] }, reauditBatchSize: 2 });
    second = await startTestGateway({ clock, dbName: first.dbName, env: { MEMGATE_POLICY_BUNDLE: bundles[1] }, reauditBatchSize: 2 });
    agent = await first.token({ tenant: "walkers", subjects: ["alice"], roles: ["agent"] });
    admin = await first.token({ tenant: "walkers", sub: "owner", subjects: [], roles: ["admin"] });
  });
  afterAll(async () => {
    await third?.stop();
    await second?.stop();
    await first?.stop();
  });

  it("MP-BREAK: both reload at once; every refused item has exactly one quarantine event and the progress scanned each item once", async () => {
    const values = [`loves ${PHRASE} 1`, "tea in the morning", `loves ${PHRASE} 2`, "short answers", `loves ${PHRASE} 3`, "dark mode"];
    for (const [i, value] of values.entries()) {
      expect((await first.gql(agent, STORE, { input: preference({ key: `k${i}`, value }) })).data!.storeMemory.stopReason).toBe("SUCCESS_STORED");
    }
    const tightened = tightenedBundle();
    // The policy version is the digest of the bundle's content (issue 22 §6), not of the file.
    const hash = (await loadBundle(tightened)).hash;
    // Another tenant's walk under that bundle is leased by a process elsewhere (alive: its lease runs a minute more).
    const lease = await first.token({ tenant: "walkers-lease", subjects: ["alice"], roles: ["agent"] });
    expect((await first.gql(lease, STORE, { input: preference({ key: "x", value: `loves ${PHRASE} 4` }) })).data!.storeMemory.stopReason).toBe(
      "SUCCESS_STORED",
    );
    await first.gateway.db.collection(REAUDIT_LEASES).insertOne({
      _id: leaseId("walkers-lease", hash),
      owner: "a-process-elsewhere",
      policy_hash: hash,
      expires_at: new Date(clock.now().getTime() + 60_000),
    } as never);
    for (const bundle of bundles) copyFileSync(tightened, bundle);
    expect(await Promise.all([first.gateway.services.policy.reload(), second.gateway.services.policy.reload()])).toEqual([true, true]);
    await Promise.all([first.gateway.services.reaudit?.idle(), second.gateway.services.reaudit?.idle()]);
    const progress = await reauditDone(first, admin, first.gateway.services.policy.hash!);
    const governed = progress.targets.find((t: { kind: string }) => t.kind === "governed-memories");
    expect(governed).toMatchObject({ scanned: 6, quarantined: 3, done: true });
    const quarantines = (await eventsOf(first.gateway.db, "walkers")).filter((e) => e.event_type === "quarantine");
    expect(quarantines).toHaveLength(3);
    expect(new Set(quarantines.map((e) => e.memory_id)).size).toBe(3);
    expect(first.gateway.services.policy.hash).toBe(hash);
    expect(await first.gateway.db.collection(REAUDIT_LEASES).countDocuments({ _id: leaseId("walkers", hash) } as never)).toBe(0);
  });

  it("MP-BREAK: a lease held by a live walker is left alone; one its holder let expire (injected clock) is taken over", async () => {
    const owner = await first.token({ tenant: "walkers-lease", sub: "owner", subjects: [], roles: ["admin"] });
    const status = async () => (await first.gql(owner, `query { reauditStatus { progress { state } } }`)).data!.reauditStatus.progress;
    expect(await status()).toBeNull();
    // A restart resumes every tenant not done under the bundle in force, once the lease has run out.
    clock.advance(61_000);
    const reaudit = first.gateway.services.reaudit!;
    await reaudit.stop();
    reaudit.start();
    const progress = await reauditDone(first, owner, first.gateway.services.policy.hash!);
    expect(progress.targets.find((t: { kind: string }) => t.kind === "governed-memories")).toMatchObject({ scanned: 1, quarantined: 1 });
    expect(
      await first.gateway.db.collection(REAUDIT_LEASES).countDocuments({ _id: leaseId("walkers-lease", first.gateway.services.policy.hash!) } as never),
    ).toBe(0);
  });

  it("MP-BREAK: a process still enforcing the older bundle walks under it without hiding the newer walk; a bundle loaded again after another walks again", async () => {
    const tightened = first.gateway.services.policy.hash!;
    const newer = await reauditDone(first, admin, tightened);
    const olderBundle = path.join(dir, "third.tar.gz");
    copyFileSync(POLICY_BUNDLE, olderBundle);
    third = await startTestGateway({ clock, dbName: first.dbName, env: { MEMGATE_POLICY_BUNDLE: olderBundle }, reauditBatchSize: 2 });
    const older = third.gateway.services.policy.hash!;
    expect(older).not.toBe(tightened);
    const olderWalk = await reauditDone(third, await third.token({ tenant: "walkers", sub: "owner", subjects: [], roles: ["admin"] }), older);
    expect(olderWalk.targets.find((t: { kind: string }) => t.kind === "governed-memories")).toMatchObject({ scanned: 6, quarantined: 0, done: true });
    // The newer bundle's walk, as the first process reports it, is untouched by the older one.
    expect(await reauditDone(first, admin, tightened)).toEqual(newer);

    // The second process rolls back to the older bundle (already walked last: no second walk), then forward again:
    // the tenant's latest walk was under the older bundle, so what was written meanwhile is judged under the newer.
    clock.advance(1_000);
    copyFileSync(olderBundle, bundles[1]);
    expect(await second.gateway.services.policy.reload()).toBe(true);
    expect(await reauditDone(second, admin, older)).toEqual(olderWalk);
    copyFileSync(bundles[0], bundles[1]);
    expect(await second.gateway.services.policy.reload()).toBe(true);
    const again = await reauditDone(second, admin, tightened);
    expect(again.startedAt > newer.startedAt).toBe(true);
    expect(again.targets.find((t: { kind: string }) => t.kind === "governed-memories")).toMatchObject({ scanned: 6, done: true });
    expect((await eventsOf(first.gateway.db, "walkers")).filter((e) => e.event_type === "quarantine")).toHaveLength(3);
  });
});
