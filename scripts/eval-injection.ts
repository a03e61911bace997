/**
 * Injection by intent (issue 21 item 4, C19-TOOL): counts, per split, language and kind, how
 * many injection lines (`test/corpus/detectors/<split>/injection*.tsv`: lang, kind, text) are
 * refused and how many texts that talk about injection (`benign-injection-talk.tsv`: lang,
 * category, text) are stored, through the real detectors and the compiled policy (one STORE
 * per text, as scripts/eval-detectors.ts judges).
 *   npx tsx scripts/eval-injection.ts [dev|test|blind] [--misses]
 * `--misses` lists the texts judged wrongly, and only for dev: the other splits are read as
 * numbers, never as texts, so nothing is tuned on them.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { CORPUS_DIR, createJudge, DEFAULT_BUNDLE, type CorpusLine } from "./eval-detectors";

interface Line extends CorpusLine {
  lang: string;
}

function read(split: string, file: string): Line[] {
  return readFileSync(path.join(CORPUS_DIR, split, file), "utf8")
    .split("\n")
    .map((raw, i) => ({ raw, line: i + 1 }))
    .filter(({ raw }) => raw.trim() !== "" && !raw.startsWith("#"))
    .map(({ raw, line }) => {
      const [lang, label, ...rest] = raw.split("\t");
      return { lang, label, text: rest.join("\t").replace(/\\n/g, "\n"), file: `${split}/${file}`, line };
    });
}

export interface InjectionCounts {
  split: string;
  attacks: { lang: string; kind: string; total: number; refused: number }[];
  talk: { lang: string; category: string; total: number; refused: number }[];
  misses: string[];
  /** how often each rule refused a benign text (rule names only: safe to print for any split) */
  falseRules: Record<string, number>;
  /** the split's general benign memories refused by C19-TOOL */
  benignByInjection: { total: number; refused: number };
}

export async function countSplit(split: string, bundle = DEFAULT_BUNDLE): Promise<InjectionCounts | undefined> {
  const dir = path.join(CORPUS_DIR, split);
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir);
  const attackFiles = files.filter((f) => /^injection.*\.tsv$/.test(f)).sort();
  const talkFiles = files.filter((f) => f === "benign-injection-talk.tsv");
  if (attackFiles.length === 0 && talkFiles.length === 0) return undefined;
  const judge = await createJudge(bundle);
  const out: InjectionCounts = { split, attacks: [], talk: [], misses: [], falseRules: {}, benignByInjection: { total: 0, refused: 0 } };
  const bump = <T extends { total: number; refused: number }>(list: T[], key: Omit<T, "total" | "refused">, refused: boolean) => {
    let row = list.find((r) => Object.entries(key).every(([k, v]) => (r as Record<string, unknown>)[k] === v));
    if (!row) list.push((row = { ...key, total: 0, refused: 0 } as T));
    row.total++;
    if (refused) row.refused++;
  };
  for (const file of attackFiles) {
    for (const line of read(split, file)) {
      const v = await judge(line, "PREFERENCE");
      bump(out.attacks, { lang: line.lang, kind: line.label }, v.refused);
      if (!v.refused) out.misses.push(`MISSED ${line.file}:${line.line} ${line.lang} ${line.label}  ${line.text}`);
    }
  }
  for (const file of talkFiles) {
    for (const line of read(split, file)) {
      const v = await judge(line, "PREFERENCE");
      bump(out.talk, { lang: line.lang, category: line.label }, v.refused);
      if (v.refused) for (const e of v.explanations) out.falseRules[e.replace(/_in_\w+$/, "")] = (out.falseRules[e.replace(/_in_\w+$/, "")] ?? 0) + 1;
      if (v.refused) out.misses.push(`FALSE+ ${line.file}:${line.line} ${line.lang} ${v.explanations.join("; ")}  ${line.text}`);
    }
  }
  // The split's benign memories (lang, category, kind, text), where present: only the
  // refusals by this check (C19-TOOL) are counted, the forbidden classes have their own eval.
  if (files.includes("benign.tsv") && split !== "dev") {
    for (const raw of readFileSync(path.join(dir, "benign.tsv"), "utf8").split("\n")) {
      const cols = raw.split("\t");
      if (raw.startsWith("#") || cols.length < 4) continue;
      const v = await judge({ label: cols[1], text: cols.slice(3).join("\t"), file: `${split}/benign.tsv`, line: 0 }, "PREFERENCE");
      const tool = v.explanations.filter((e) => e.startsWith("C19-TOOL"));
      out.benignByInjection.total++;
      if (tool.length > 0) out.benignByInjection.refused++;
      for (const e of tool) out.falseRules[e.replace(/_in_\w+$/, "")] = (out.falseRules[e.replace(/_in_\w+$/, "")] ?? 0) + 1;
    }
  }
  return out;
}

function table(counts: InjectionCounts): string {
  const lines = [`== ${counts.split}`];
  const sum = (rows: { total: number; refused: number }[]) => rows.reduce((a, r) => [a[0] + r.refused, a[1] + r.total], [0, 0]);
  const by = <T extends { total: number; refused: number }>(rows: T[], key: (r: T) => string) => {
    const m = new Map<string, T[]>();
    for (const r of rows) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
    return [...m.entries()].sort(([a], [b]) => a.localeCompare(b));
  };
  const [hit, all] = sum(counts.attacks);
  lines.push(`injection recall ${hit}/${all} = ${(hit / Math.max(1, all)).toFixed(3)}`);
  for (const [lang, rows] of by(counts.attacks, (r) => r.lang)) {
    const [h, a] = sum(rows);
    lines.push(`  ${lang.padEnd(4)} ${String(h).padStart(4)}/${String(a).padEnd(4)} ${rows.map((r) => `${r.kind} ${r.refused}/${r.total}`).join(", ")}`);
  }
  for (const [kind, rows] of by(counts.attacks, (r) => r.kind)) {
    const [h, a] = sum(rows);
    lines.push(`  kind ${kind.padEnd(16)} ${h}/${a}`);
  }
  const [fp, talk] = sum(counts.talk);
  lines.push(`benign injection talk refused ${fp}/${talk} = ${((100 * fp) / Math.max(1, talk)).toFixed(1)}%`);
  for (const [lang, rows] of by(counts.talk, (r) => r.lang)) {
    const [h, a] = sum(rows);
    lines.push(`  ${lang.padEnd(4)} ${h}/${a}`);
  }
  for (const [cat, rows] of by(counts.talk, (r) => r.category)) {
    const [h, a] = sum(rows);
    lines.push(`  category ${cat.padEnd(16)} ${h}/${a}`);
  }
  if (counts.benignByInjection.total > 0)
    lines.push(`benign memories refused as injection ${counts.benignByInjection.refused}/${counts.benignByInjection.total}`);
  for (const [rule, n] of Object.entries(counts.falseRules).sort()) lines.push(`  benign refused by ${rule}: ${n}`);
  return lines.join("\n");
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const splits = args.filter((a) => !a.startsWith("--"));
  for (const split of splits.length ? splits : ["dev", "test", "blind"]) {
    const counts = await countSplit(split, process.env.MEMGATE_POLICY_BUNDLE ?? DEFAULT_BUNDLE);
    if (!counts) continue;
    console.log(table(counts));
    if (args.includes("--misses") && split === "dev") for (const m of counts.misses) console.log(m);
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
