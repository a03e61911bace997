#!/usr/bin/env python3
"""Benign technical sentences for the detector evaluation, from the READMEs of the packages
installed in node_modules/ (nothing is fetched). Only packages whose package.json licence is
MIT, ISC, Apache-2.0, BSD-2-Clause, BSD-3-Clause or 0BSD are read; each sentence records its
package, version and licence. Prose only: code blocks, tables, headings, lists of links and
lines with URLs are skipped. Deterministic: the same node_modules gives the same files.
Each sentence goes to the dev or the test split by a hash of its text (about half each).
A second pass puts up to 40 more sentences of each package, not already taken, in
dev/benign-docs-extra.tsv: more development text to look for false positives on. It leaves the
two splits exactly as the first pass made them.

  python3 test/corpus/detectors/extract-docs.py   (run from the repository root)
"""
import glob
import hashlib
import json
import os
import re

ALLOWED = {"MIT", "ISC", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "0BSD"}
PER_PACKAGE = 12
EXTRA_PER_PACKAGE = 40
OUT = os.path.join("test", "corpus", "detectors")


def readme(folder):
    for name in ("README.md", "readme.md", "Readme.md", "README.markdown", "README"):
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            return open(path, encoding="utf-8", errors="replace").read()
    return None


def prose(text):
    out, fenced = [], False
    for line in text.split("\n"):
        s = line.strip()
        if s.startswith("```") or s.startswith("~~~"):
            fenced = not fenced
            continue
        if fenced or line.startswith("    ") or line.startswith("\t"):
            out.append("")
            continue
        if not s or s.startswith(("#", "|", "<", "!", "[", ">", "=", "-" * 3)):
            out.append("")
            continue
        out.append(re.sub(r"^(?:[-*+]|\d+\.)\s+", "", s))
    return " ".join(out).split("  ")


def sentences(paragraph):
    paragraph = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", paragraph)  # [text](link) -> text
    paragraph = re.sub(r"[*_]{1,2}([^*_]+)[*_]{1,2}", r"\1", paragraph)
    paragraph = re.sub(r"\s+", " ", paragraph).strip()
    for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", paragraph):
        s = s.strip()
        if not (30 <= len(s) <= 220) or not re.match(r"^[A-Z][a-z]", s) or not s.endswith("."):
            continue
        if re.search(r"https?://|www\.|@\w|\]\(|[<>{}|]|\\", s):
            continue
        letters = sum(c.isalpha() or c == " " for c in s)
        if letters / len(s) < 0.85 or len(s.split()) < 6:
            continue
        yield s


def packages():
    manifests = sorted(glob.glob("node_modules/*/package.json") + glob.glob("node_modules/@*/*/package.json"))
    for manifest in manifests:
        try:
            pkg = json.load(open(manifest, encoding="utf-8"))
        except (OSError, ValueError):
            continue
        licence = pkg.get("license")
        if licence not in ALLOWED:
            continue
        text = readme(os.path.dirname(manifest))
        if text:
            yield pkg, licence, text


def main():
    rows, seen = [], set()
    for pkg, licence, text in packages():
        taken = 0
        for paragraph in prose(text):
            for s in sentences(paragraph):
                if s in seen or taken >= PER_PACKAGE:
                    continue
                seen.add(s)
                taken += 1
                rows.append((f"{pkg['name']}@{pkg.get('version', '?')}", licence, s))
    header = (
        "# category\ttext\tpackage\tlicence   sentences from the README of an installed package (see extract-docs.py);"
        " every line must be SUCCESS_STORED as PROJECT_CONFIG\n"
    )
    split = {"dev": [], "test": []}
    for package, licence, s in rows:
        half = "test" if hashlib.sha256(s.encode()).digest()[0] % 2 else "dev"
        split[half].append(f"PROJECT_CONFIG\t{s}\t{package}\t{licence}\n")
    for half, lines in split.items():
        with open(os.path.join(OUT, half, "benign-docs.tsv"), "w", encoding="utf-8") as f:
            f.write(header)
            f.writelines(lines)
        print(half, len(lines))
    extra = []
    for pkg, licence, text in packages():
        taken = 0
        for paragraph in prose(text):
            for s in sentences(paragraph):
                if s in seen or taken >= EXTRA_PER_PACKAGE:
                    continue
                seen.add(s)
                taken += 1
                extra.append(f"PROJECT_CONFIG\t{s}\t{pkg['name']}@{pkg.get('version', '?')}\t{licence}\n")
    with open(os.path.join(OUT, "dev", "benign-docs-extra.tsv"), "w", encoding="utf-8") as f:
        f.write(header)
        f.writelines(extra)
    print("dev extra", len(extra))


if __name__ == "__main__":
    main()
