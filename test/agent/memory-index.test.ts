import { TenantMemoryIndex } from "../../src/contracts/agent/memory-index";
import { agentMemoryDocId, sealMemory, type AgentMemoryRecord } from "../../src/contracts/agent/records";
import { toItem } from "../../src/contracts/agent/response";

/**
 * Bounded memory (issue 26 item 2): the agent index keeps what reads and in-place writes use of a
 * memory, not the record as stored, so a large tenant's index is a third of the driver's records.
 */
const NOW = new Date("2026-11-28T12:00:00.000Z");

function stored(n: number, links: AgentMemoryRecord["links"]): AgentMemoryRecord {
  const memoryId = `am_m${n}`;
  return sealMemory({
    _id: agentMemoryDocId("acme", "repo:app", memoryId),
    tenant_id: "acme",
    space: "repo:app",
    repo_id: "app",
    memory_id: memoryId,
    subject_id: "repo:app",
    author_id: "agent-1",
    scope: "repo",
    kind: "fact",
    text: `module ${n} uses library ${n % 7} for caching`,
    confidence: 0.8,
    rationale: n % 2 === 0 ? "seen in the build" : null,
    links,
    evidence_refs: n % 2 === 0 ? ["ci:run/1"] : [],
    truth: null,
    utility: null,
    invalidated_by: null,
    status: "active",
    created_at: NOW,
    updated_at: NOW,
    created_by: { id: "agent-1", roles: ["agent"] },
    content_salt: `salt-${n}`,
  });
}

describe("TenantMemoryIndex keeps a lean record (issue 26 item 2)", () => {
  const noLinks = { problem_id: null, related_memory_ids: [], change_targets: [] };
  const first = stored(1, noLinks);
  const second = stored(2, { problem_id: null, related_memory_ids: ["am_m1"], change_targets: [] });
  const index = new TenantMemoryIndex();
  index.upsert(structuredClone(first));
  index.upsert(structuredClone(second));

  it("SG-LOAD: drops provenance, integrity hash and creator; keeps every field a read or an update uses", () => {
    const kept = index.get("am_m2")!.record;
    expect(Object.keys(kept).sort()).toEqual(
      [
        "_id",
        "author_id",
        "confidence",
        "content_salt",
        "created_at",
        "evidence_refs",
        "invalidated_by",
        "kind",
        "links",
        "memory_id",
        "rationale",
        "repo_id",
        "scope",
        "space",
        "status",
        "subject_id",
        "tenant_id",
        "text",
        "truth",
        "updated_at",
        "utility",
      ].sort(),
    );
  });

  it("IF1-READ: a read's item is the same from the lean record as from the stored one", () => {
    for (const record of [first, second]) expect(toItem(index.get(record.memory_id)!.record, index)).toEqual(toItem(record, index));
  });

  it("IF1-EXPAND: links stay navigable both ways", () => {
    expect(index.neighbours("am_m1")).toEqual([{ to: "am_m2", type: "related" }]);
    expect(index.neighbours("am_m2")).toEqual([{ to: "am_m1", type: "related" }]);
  });
});
