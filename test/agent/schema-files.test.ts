import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { validateDocument } from "../../src/contracts/agent/schema-validation";

const root = path.resolve(__dirname, "..", "..");
/** The seed as shared with the project; a verbatim copy travels with the tests. */
const seedPath = [path.resolve(root, "..", "shared", "seeds", "001_938d362d2f9990fa.txt"), path.resolve(__dirname, "fixtures", "seed-001.txt")].find(
  existsSync,
)!;
const seed = readFileSync(seedPath, "utf8");
const blocks = [...seed.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]);

describe("the seed-001 schemas, kept verbatim (IF1-VALID)", () => {
  it("IF1-VALID: the seed holds exactly the three schemas read, write, update", () => {
    expect(blocks.map((b) => JSON.parse(b).$id)).toEqual(["memory.read.request", "memory.write.request", "memory.update.request"]);
  });

  it.each(blocks.map((b) => [JSON.parse(b).$id as string, b]))("IF1-VALID: schema/json/%s.json is the seed's text, byte for byte", (id, text) => {
    const file = readFileSync(path.join(root, "schema", "json", `${id}.json`), "utf8");
    expect(file).toBe(text);
    expect(JSON.parse(file)).toEqual(JSON.parse(text));
  });

  it("IF1-READ IF1-VALID: the schemas' defaults are applied (include_global, limit, semantic_hops, link toggles)", () => {
    const result = validateDocument({ op: "read", repo_id: "r", mode: "ambient", query: "q", expand: {} });
    expect(result).toMatchObject({
      ok: true,
      document: { include_global: true, limit: 20, expand: { semantic_hops: 2, include_problem_links: true, include_update_links: true } },
    });
  });

  it("IF1-VALID: validation does not change the caller's document", () => {
    const document = { op: "read", repo_id: "r", mode: "ambient", query: "q" };
    validateDocument(document);
    expect(document).toEqual({ op: "read", repo_id: "r", mode: "ambient", query: "q" });
  });

  it("IF1-VALID: every offending pointer is reported at once, with an actionable message", () => {
    const result = validateDocument({ op: "write", repo_id: 7, memory: { text: "", scope: "team", kind: "fact", confidence: 1.5 } });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues).toEqual([
      { pointer: "/memory/confidence", keyword: "maximum", message: "must be at most 1" },
      { pointer: "/memory/scope", keyword: "enum", message: 'must be one of "repo", "global"' },
      { pointer: "/memory/text", keyword: "minLength", message: "must not be empty" },
      { pointer: "/repo_id", keyword: "type", message: "must be a string" },
    ]);
  });
});
