import { ManualClock } from "../../src/clock";
import { saltedDigest } from "../../src/store/canonical";
import type { MemoryEvent } from "../../src/store/event-log";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { ERASE_MEMORY, eventsOf, storeMany } from "./support";

const ERASE_SUBJECT_NOTED = `mutation EraseAll($reason: String!, $subject: ID, $note: String) { eraseSubject(reason: $reason, subjectId: $subject, note: $note) {
  stopReason explanations erasedMemoryIds } }`;

/** Issue 22 §4 (SPEC D1, C19-AUDIT): reasons in the permanent record are codes; free text lives outside the chain, erasable. */
describe("nothing free-form in the permanent record (D1, C19-AUDIT, issue 22 §4)", () => {
  const clock = new ManualClock("2026-10-01T00:00:00.000Z");
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
  });
  afterAll(() => gw.stop());

  const notes = () => gw.gateway.db.collection<{ _id: string; note: string; salt: string; subject_id: string | null }>("audit_reason_notes");
  const allEventsText = async () => JSON.stringify(await gw.gateway.db.collection<MemoryEvent>("memory_events").find({}).toArray());

  it("D1: a reason code from policy data is recorded as it is; no note is kept", async () => {
    const agent = await gw.token({ tenant: "codes", subjects: ["alice"], roles: ["agent"] });
    const alice = await gw.token({ tenant: "codes", subjects: ["alice"], roles: ["user"], sub: "alice" });
    const [id] = await storeMany(gw, agent, 1);
    expect((await gw.gql(alice, ERASE_MEMORY, { id, reason: "art17_1b_consent_withdrawn" })).data!.eraseMemory.stopReason).toBe("SUCCESS_DELETED");
    const erase = (await eventsOf(gw.gateway.db, "codes")).find((e) => e.event_type === "erase")!;
    expect(erase.reason).toBe("art17_1b_consent_withdrawn");
    expect(erase.metadata.note_id).toBeUndefined();
  });

  it("D1 C19-AUDIT: a free-text reason and a note are kept outside the chain (the event says `other` and carries the note's salted digest); erasing the subject again erases them", async () => {
    const agent = await gw.token({ tenant: "notes", subjects: ["bob"], roles: ["agent"] });
    const admin = await gw.token({ tenant: "notes", subjects: [], roles: ["admin"], sub: "root" });
    await storeMany(gw, agent, 2);
    const reason = "Kunde hat am Telefon um Loeschung gebeten, Ticket 7781";
    const note = "called twice, confirmed identity by the postcode";
    const res = (await gw.gql(admin, ERASE_SUBJECT_NOTED, { subject: "bob", reason, note })).data!.eraseSubject;
    expect(res.stopReason).toBe("SUCCESS_DELETED");
    const erases = (await eventsOf(gw.gateway.db, "notes")).filter((e) => e.event_type === "erase");
    expect(erases.length).toBe(2);
    for (const e of erases)
      expect(e).toMatchObject({ reason: "other", metadata: { note_id: expect.any(String), note_digest: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    const text = await allEventsText();
    expect(text).not.toContain("Telefon");
    expect(text).not.toContain("postcode");
    const kept = await notes().findOne({ _id: erases[0].metadata.note_id as string });
    expect(kept).toMatchObject({ subject_id: "bob", note: `${reason}\n${note}` });
    expect(saltedDigest(kept!.salt, { note: kept!.note })).toBe(erases[0].metadata.note_digest);

    // The person's next erasure takes what was noted about them before with it.
    expect((await gw.gql(admin, ERASE_SUBJECT_NOTED, { subject: "bob", reason: "user_request" })).data!.eraseSubject.stopReason).toBe("SUCCESS_DELETED");
    expect(await notes().countDocuments({ subject_id: "bob" })).toBe(0);
  });

  it("C19-FORBID: a note is judged like every text: a card number in it refuses the erasure and keeps nothing", async () => {
    const agent = await gw.token({ tenant: "judged", subjects: ["carol"], roles: ["agent"] });
    const admin = await gw.token({ tenant: "judged", subjects: [], roles: ["admin"], sub: "root" });
    await storeMany(gw, agent, 1);
    const before = await notes().countDocuments({});
    const res = (await gw.gql(admin, ERASE_SUBJECT_NOTED, { subject: "carol", reason: "user_request", note: "refund to card 4111 1111 1111 1111" })).data!
      .eraseSubject;
    expect(res.stopReason).not.toBe("SUCCESS_DELETED");
    expect(await notes().countDocuments({})).toBe(before);
    expect(await allEventsText()).not.toMatch(/4111[ -]?1111/); // the card, not "4111" alone: a random request id may hold that
  });
});
