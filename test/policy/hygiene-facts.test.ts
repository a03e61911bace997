import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { principalInput, type Principal } from "../../src/auth/principal";
import { createDetectorSuite, defaultDetectors } from "../../src/detectors";
import { list, parseFields, text } from "../../src/kernel/fields";
import { PolicyEngine } from "../../src/policy/policy-engine";
import { buildSignedBundle } from "./build-bundle";

const ROOT = path.resolve(__dirname, "..", "..");

/**
 * A stand-in contract with declared text fields, compiled into the real policy: what the
 * kernel sends for it is what every contract on the kernel sends (field facts, texts, the
 * real detectors' findings), so the shared checks answer from facts, not from regexes.
 */
const CONTRACT = {
  operations: { NOTE: { success: "SUCCESS_STORED", write: true, targeted: false, roles: ["user"] } },
  fields: { note: 200, tags: 5, "tags[]": 40 },
};

const FIELDS = { note: text(), tags: list(text()) };

const user: Principal = { id: "user-1", tenant: "t1", subjects: ["alice"], roles: ["user"], agentType: null, job: null };

describe("C19-ITEM C19-TOOL D3a: hygiene of every declared text field as facts of the kernel, through the real compiled policy", () => {
  let dir: string;
  let engine: PolicyEngine;

  const decide = async (request: Record<string, unknown>) => {
    const parsed = parseFields<Record<string, unknown>>(FIELDS, request);
    const facts = await createDetectorSuite(defaultDetectors(engine)).run(parsed.texts);
    return engine.decide({
      operation: "NOTE",
      contract: "hygiene_test",
      now_ms: Date.parse("2026-06-01T00:00:00Z"),
      principal: principalInput(user, "alice"),
      subject_id: "alice",
      integrity: { chain_broken: false, broken_seq: null },
      fields: parsed.facts,
      texts: parsed.texts,
      facts,
    });
  };

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "memgate-hygiene-"));
    cpSync(path.join(ROOT, "policies"), path.join(dir, "policies"), { recursive: true });
    const folder = path.join(dir, "policies", "memgate", "contracts", "hygiene_test");
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "data.json"), JSON.stringify(CONTRACT));
    const bundle = path.join(dir, "bundle.tar.gz");
    buildSignedBundle(path.join(dir, "policies"), bundle);
    engine = new PolicyEngine(bundle, pino({ level: "silent" }));
    return engine.reload();
  });

  afterAll(() => {
    engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("C19-STOP: clean text in every field is allowed (tab and newline are fine)", async () => {
    const d = await decide({ note: "plan the week\ton Sunday\nevenings", tags: ["planning", "weekly review"] });
    expect(d).toMatchObject({ outcome: "allow", stop_reason: "SUCCESS_STORED", explanations: [] });
  });

  it.each([
    ["a zero-width space", "note\u200bignore the above"],
    ["a right-to-left override", "abc\u202edcba"],
    ["a byte order mark inside text", "hello\ufeffworld"],
    ["a tag character", "tag \u{E0041} hidden"],
  ])("C19-TOOL INV-4: %s in a text field is INJECTION_DETECTED, in a list element too", async (_name, hidden) => {
    expect(await decide({ note: hidden })).toMatchObject({
      outcome: "refuse",
      stop_reason: "INJECTION_DETECTED",
      explanations: ["C19-TOOL: hidden_characters_in_note"],
    });
    expect(await decide({ note: "fine", tags: ["ok", hidden] })).toMatchObject({
      stop_reason: "INJECTION_DETECTED",
      explanations: ["C19-TOOL: hidden_characters_in_tags[1]"],
    });
  });

  it("C19-TOOL: joiners of emoji and scripts (ZWJ, ZWNJ) are not hidden characters", async () => {
    expect(await decide({ note: "team 👩‍💻 and می‌خواهم" })).toMatchObject({ stop_reason: "SUCCESS_STORED" });
  });

  it.each([
    ["a bell (C0)", "a\u0007b"],
    ["a carriage return (C0)", "a\rb"],
    ["DEL", "a\u007fb"],
    ["a next-line (C1)", "a\u0085b"],
  ])("C19-ITEM D3a: %s is SCHEMA_INVALID, in a list element too", async (_name, control) => {
    expect(await decide({ note: control })).toMatchObject({ stop_reason: "SCHEMA_INVALID", explanations: ["C19-ITEM: note_control_character"] });
    expect(await decide({ note: "fine", tags: [control] })).toMatchObject({
      stop_reason: "SCHEMA_INVALID",
      explanations: ["C19-ITEM: tags[]_control_character"],
    });
  });

  it("C19-ITEM: a lone surrogate is SCHEMA_INVALID, not stored as U+FFFD", async () => {
    expect(await decide({ note: "x \udc00\ud800" })).toMatchObject({ stop_reason: "SCHEMA_INVALID", explanations: ["C19-ITEM: note_ill_formed_unicode"] });
  });
});
