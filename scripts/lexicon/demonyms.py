#!/usr/bin/env python3
"""Writes the "<person> is <nationality or ethnic group>" entries of the de, nl, sv, fr, es, it and pt lexicons
(policies/memgate/forbidden/languages/<lang>/data.json, class identity) from scripts/lexicon/demonyms.tsv.

Every group gets the same forms (seed contract §4.1; docs/JUDGEMENT.md "The same rule for every group"):
  de, nl  globs of exact forms ("ist* türke": "Türken" after "ist" is not "Türke", "Schweden" is a country)
          person nouns are terms; plurals, Dutch feminine nouns (= the inflected adjective) and adjectives
          are topics (counted only about a person: "das Menü ist italienisch", "de documentatie is Engels")
  sv      stemmed phrases after "==är"/"==var"/"==blev" (as written: "år" folds to "är"); nouns terms,
          adjectives topics
  fr, es, it, pt  noun and adjective are one word ("est marocain", "el vino es francés"): topics,
          stemmed phrases after the copula; Italian "==è" and Portuguese "==é" as written (not "e", "and")
A form marked "!" in the table collides with an ordinary word (a country, a city, a language, a thing's
adjective) and is a topic whatever its kind. Run: python3 scripts/lexicon/demonyms.py; then npm run -s policy:build.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LANGS = ["de", "nl", "sv", "fr", "es", "it", "pt"]
MARK = "scripts/lexicon/demonyms.py"


def rows():
    for line in open(os.path.join(ROOT, "scripts/lexicon/demonyms.tsv"), encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        cells = [c.strip() for c in line.rstrip("\n").split("|")]
        cells += [""] * (8 - len(cells))
        yield cells[0], dict(zip(LANGS, cells[1:8]))


def split(cell):
    return [w.strip() for w in cell.split(",")] if cell else []


def flagged(word):
    """(word lower-cased, collides with an ordinary word); None for a form left out ("-")"""
    if word.startswith("-"):
        return None, True
    return word.lstrip("!").lower(), word.startswith("!")


def es_forms(cell):
    f = split(cell)
    m = f[0]
    if len(f) >= 3:
        return [m, f[1]], [f[2], f[2] if f[1] == m else f[1] + "s"]
    plain = m.replace("á", "a").replace("é", "e").replace("í", "i").replace("ó", "o").replace("ú", "u")
    if m.endswith("o"):
        return [m, m[:-1] + "a"], [m + "s", m[:-1] + "as"]
    if m.endswith(("és", "án", "ín", "ón")):
        base = plain
        return [m, base + "a"], [base + "es", base + "as"]
    if m.endswith(("í", "ú")):
        return [m], [m + "es", m + "s"]
    if m.endswith(("e", "a")):
        return [m], [m + "s"]
    return [m, m + "a"], [m + "es", m + "as"]


def it_forms(cell):
    f = split(cell)
    if len(f) == 4:
        return f[:2], f[2:]
    m = f[0]
    if m.endswith("o"):
        return [m, m[:-1] + "a"], [m[:-1] + "i", m[:-1] + "e"]
    if m.endswith("e"):
        return [m], [m[:-1] + "i"]
    return [m], [m]


def pt_forms(cell):
    f = split(cell)
    if len(f) == 4:
        return f[:2], f[2:]
    m = f[0]
    if m.endswith("o"):
        return [m, m[:-1] + "a"], [m + "s", m[:-1] + "as"]
    if m.endswith("ês"):
        return [m, m[:-2] + "esa"], [m[:-2] + "eses", m[:-2] + "esas"]
    if m.endswith("e"):
        return [m], [m + "s"]
    return [m], [m + "s"]


def fr_forms(cell):
    f = split(cell)
    m = f[0]
    if len(f) == 2:
        fem = f[1]
    elif m.endswith("ien") or m.endswith("éen"):
        fem = m + "ne"
    elif m.endswith("e"):
        fem = m
    else:
        fem = m + "e"
    plural = lambda w: w if w.endswith(("s", "x")) else w + "s"
    return sorted({m, fem}), sorted({plural(m), plural(fem)})


def entries():
    """{lang: {"terms": [...], "topics": [...]}}"""
    out = {lang: {"terms": [], "topics": []} for lang in LANGS}
    for _, cells in rows():
        # German: nouns after "ist/bin/war", bare, with "ein(e)" or "gebürtige(r)"; plurals and adjectives topics
        de = split(cells["de"])
        if de:
            m, f, pl, adj = de
            for noun in (m, f):
                word, collides = flagged(noun)
                if word is None:
                    continue
                kind = "topics" if collides or m.startswith("!") else "terms"
                for cop in ("ist*", "bin*", "war*"):
                    for mod in ("", "ein* ", "gebürtige* ", "*-"):
                        sep = "" if mod == "*-" else " "
                        out["de"][kind].append(f"{cop} {mod}{word}" if sep else f"{cop} *-{word}")
            for cop in ("sind*", "waren*"):
                for mod in ("", "gebürtige* "):
                    out["de"]["topics"].append(f"{cop} {mod}{flagged(pl)[0]}")
            for cop in ("ist*", "bin*", "war*", "sind*", "waren*"):
                out["de"]["topics"].append(f"{cop} {adj.lower()}")
        # Dutch: the man's noun a term; the woman's noun (the inflected adjective), plural and adjective topics
        nl = split(cells["nl"])
        if nl:
            m, f, pl, adj = nl
            word, collides = flagged(m)
            for cop in ("is*", "ben*", "was*", "werd*"):
                for mod in ("", "een* "):
                    out["nl"]["topics" if collides or word == adj.lower() else "terms"].append(f"{cop} {mod}{word}")
                    out["nl"]["topics"].append(f"{cop} {mod}{flagged(f)[0]}")
                out["nl"]["topics"].append(f"{cop} {adj.lower()}")
                out["nl"]["topics"].append(f"{cop} half {adj.lower()}")
            for cop in ("zijn*", "waren*"):
                out["nl"]["topics"].append(f"{cop} {flagged(pl)[0]}")
        # Swedish: "är marockan" a term; "är svensk" (the adjective, or a noun that is the adjective) a topic
        sv = split(cells["sv"])
        if sv:
            noun, plural, adj = sv
            word, collides = flagged(noun)
            for cop in ("==är", "==var", "==blev"):
                if word is not None:
                    out["sv"]["topics" if collides or word == adj.lower() else "terms"].append(f"{cop} {word}")
                out["sv"]["topics"].append(f"{cop} {flagged(plural)[0]}")
                out["sv"]["topics"].append(f"{cop} {adj.lower()}")
        # Romance: topics, singular and plural copulas
        romance = {
            "fr": (fr_forms, ("est", "suis", "es", "était", "étais"), ("sont", "sommes", "étaient")),
            "es": (es_forms, ("es", "soy", "eres", "era"), ("son", "somos", "eran")),
            "it": (it_forms, ("==è", "sono", "sei", "era", "ero"), ("sono", "siamo", "erano")),
            "pt": (pt_forms, ("==é", "sou", "és", "era"), ("==são", "somos", "eram")),
        }
        for lang, (forms, singular, plural) in romance.items():
            if not cells[lang]:
                continue
            sg, pl = forms(cells[lang])
            for copulas, words in ((singular, sg), (plural, pl)):
                for cop in copulas:
                    for w in words:
                        out[lang]["topics"].append(f"{cop} {w.lower()}")
    return out


def dedupe_stemmed(lang, words):
    """Stemmed phrases that compile to the same stems: keep the first (a term before a topic)."""
    if lang in ("de", "nl"):
        seen, kept = set(), []
        for w in words:
            if w not in seen:
                seen.add(w)
                kept.append(w)
        return kept
    stems = subprocess.run(
        ["npx", "tsx", "scripts/lexicon/stems.ts"],
        input="".join(f"{lang}\t{w}\n" for w in words),
        capture_output=True, text=True, cwd=ROOT, check=True,
    ).stdout.split("\n")
    seen, kept = set(), []
    for w, s in zip(words, stems):
        if s not in seen:
            seen.add(s)
            kept.append(w)
    return kept


# Words of a text about a thing, not a person (the language's context.software, which already holds
# "catering", "kantine", "manuel"): a dish, a cuisine, a wine, a menu, a mother tongue. Not "documentation":
# dev texts about a person's health say they prefer documentation work.
# "Mein Lieblingsessen ist italienisch", "Mijn moedertaal is Engels" are about food and language, for every group;
# "notre équipe de Casablanca est marocaine" is about a team (German, Dutch and Swedish nouns are not adjectives).
THINGS = {
    "de": ["lieblingsessen*", "lieblingsküche*", "=küche", "=wein", "=weine", "menü*", "speisekarte*", "muttersprache*", "erstsprache*"],
    "nl": ["lievelingseten*", "=keuken", "=wijn", "=wijnen", "gerecht*", "=menu", "menukaart*", "moedertaal*"],
    "sv": ["favoritmat*", "=mat", "=maten", "=köket", "=vin", "=vinet", "meny*", "modersmål*"],
    "fr": ["cuisine*", "=plat", "=plats", "=vin", "=vins", "=menu", "langue maternelle", "notre équipe", "votre équipe", "leur équipe"],
    "es": ["comida*", "cocina*", "=vino", "=vinos", "=plato", "=platos", "=menú", "lengua materna", "nuestro equipo", "vuestro equipo"],
    "it": ["cucina*", "=cibo", "=vino", "=vini", "=piatto", "=piatti", "=menù", "=menu", "lingua madre", "madrelingua", "il nostro team", "la nostra squadra", "il vostro team", "la vostra squadra"],
    "pt": ["comida*", "cozinha*", "culinária*", "=vinho", "=vinhos", "=prato", "=pratos", "=menu", "língua materna", "a nossa equipa", "a nossa equipe", "o nosso time", "a vossa equipa"],
}


def main():
    generated = entries()
    for lang in LANGS:
        path = os.path.join(ROOT, f"policies/memgate/forbidden/languages/{lang}/data.json")
        data = json.load(open(path, encoding="utf-8"))
        everything = set(generated[lang]["terms"]) | set(generated[lang]["topics"])
        for kind in ("terms", "topics"):
            data[kind]["identity"] = [w for w in data[kind]["identity"] if w not in everything]
        software = data["context"]["software"]
        software.extend(w for w in THINGS[lang] if w not in software)
        both = [("terms", w) for w in generated[lang]["terms"]] + [("topics", w) for w in generated[lang]["topics"]]
        kept = set(dedupe_stemmed(lang, [w for _, w in both]))
        counts = {}
        for kind, w in both:
            if w in kept and w not in data[kind]["identity"]:
                data[kind]["identity"].append(w)
                kept.discard(w)
                counts[kind] = counts.get(kind, 0) + 1
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        print(lang, counts, file=sys.stderr)


if __name__ == "__main__":
    main()
