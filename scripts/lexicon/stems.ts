// Prints the stem of each phrase (one a line on stdin, "<lang>\t<phrase>") as the lexicon compiles it: scripts/lexicon/demonyms.py dedupes by it.
import { stemmerFor } from "../../src/detectors/stemming";
import { fold } from "../../src/detectors/language-lexicon";
import { readFileSync } from "node:fs";

const out: string[] = [];
for (const line of readFileSync(0, "utf8").split("\n")) {
  if (!line) continue;
  const [lang, phrase] = line.split("\t");
  const stem = stemmerFor(lang);
  out.push(
    phrase
      .toLowerCase()
      .split(/\s+/)
      .flatMap((w) => (w.startsWith("==") ? [w] : (w.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).map((x) => fold(stem(x)))))
      .join(" "),
  );
}
process.stdout.write(out.join("\n") + "\n");
