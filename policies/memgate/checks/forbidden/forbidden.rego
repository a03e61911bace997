# METADATA
# description: |
#   C19-FORBID / INV-2: the nine forbidden classes of seed 000 §4 are refused as
#   FORBIDDEN_CATEGORY in any field of any write, whatever the category and even with
#   explicit consent. The facts come from the detectors (input.facts): code for what needs
#   code (secrets, card numbers, IBANs, government ids, coordinates, addresses) and the
#   phrase lexicons of data.memgate.forbidden, matched by the lexicon detector against the
#   bundle in force, so a policy author adds a phrase by editing policies/ only.
#   C19-TOOL / INV-4: a write that originates in tool output is FORBIDDEN_CATEGORY (§4.9).
package memgate.checks.forbidden

import data.memgate.forbidden
import data.memgate.lib.content
import data.memgate.lib.operation

violations contains _violation("C19-FORBID", sprintf("%s_in_%s", [f.class, f.field])) if {
	some f in content.findings
	forbidden.classes[f.class]
	not _near_miss(f)
	not _innocent_reading(f)
	not _about_animal(f.field, f.class)
}

# A match that covered a word of a sense (forbidden.senses: "the date field", "diagnosing
# flaky tests") counts unless the word's linguistic facts show an innocent reading and no
# guilty one. The detector reports the facts; this rule and the sense data decide.
_innocent_reading(f) if {
	sense := forbidden.senses[f.term]
	_sense_applies(sense, f.class)
	not _guilty_reading(f, sense)
	some fact in f.facts
	fact in sense.innocent
}

# A sense may name the classes it reads (`classes`); topic findings are read as their class.
_sense_applies(sense, _) if not sense.classes

_sense_applies(sense, class) if class in sense.classes

_sense_applies(sense, class) if concat(":", ["topic", sense.classes[_]]) == class

_guilty_reading(f, sense) if {
	some fact in f.facts
	fact in object.get(sense, "guilty", [])
}

# A topic word in a text about software and about no person ("the religion field was
# removed", "the therapy booking page"), or an id in documented test data, is a near miss:
# near_miss_contexts names, per context, the classes it clears (policy data).
_near_miss(f) if {
	not _context(f.field, "context:personal")
	some context, classes in forbidden.near_miss_contexts
	f.class in classes
	_context(f.field, concat(":", ["context", context]))
}

_context(field, class) if {
	some g in content.findings
	g.field in _parts(field)
	g.class == class
}

# A finding over fields read together ("key+value": an identifier split across them) has
# the contexts of each field it spans, so a test card number split over key and value is
# judged as it would be in one field (issue 22 item 5).
_parts(field) := {field} | {part | some part in split(field, "+")}

# A topic word of a forbidden class in a statement about a person (the user, "I", "my",
# "she", a name) that is not about software: "user's parents live in Dublin",
# "the user is a defendant in a civil suit". Topic words are data (forbidden.topics).
violations contains _violation("C19-FORBID", sprintf("%s_in_%s", [class, f.field])) if {
	some f in content.findings
	startswith(f.class, "topic:")
	class := substring(f.class, 6, -1)
	forbidden.classes[class]
	_context(f.field, "context:personal")
	not _context(f.field, "context:software")
	not _innocent_reading(f)
	not _about_animal(f.field, class)
	not _about_occupation(f.field, class)
	not _holiday_of_a_faith(f.field, class)
	not _about_a_work(f.field, class)
}

# Profiling by inference (seed 000 §4.8: finances, income, debts inferred): a hedge of the text's
# language ("probably", "vermutlich", "chyba", "galiba", "たぶん") and a word of a person's means
# (debts, income, what they earn, their money) in a statement about a person that is not about
# software: "Użytkownik prawdopodobnie zarabia niewiele", "Mein Schwager hat vermutlich Spielschulden".
# The user's own means ("I probably can't afford the premium plan", "mein Gehalt steigt wohl",
# context.self_means) are their own statement, not an inference; "the build probably fails" names
# no means. The context kinds (hedge, means, self_means) are data of each language.
violations contains _violation("C19-FORBID", sprintf("profiling_in_%s", [f.field])) if {
	some f in content.findings
	f.class == "context:hedge"
	_context(f.field, "context:means")
	_context(f.field, "context:personal")
	not _context(f.field, "context:software")
	not _context(f.field, "context:self_means")
	not _about_animal(f.field, "profiling")
}

# Practising an observance, said of a person (§4.1 religious practices): a practising verb of the
# text's language (context.observing: fasts, observes, keeps) and the name of any religion's
# observance (context.observance, the same list for every religion) in a statement about a person
# that is not about software. One rule for every religion: "Meine Mutter fastet an Jom Kippur" is
# judged as "... im Ramadan" is, and "Das Büro ist an Diwali geschlossen" names no practice.
violations contains _violation("C19-FORBID", sprintf("identity_in_%s", [f.field])) if {
	some f in content.findings
	f.class == "context:observing"
	_context(f.field, "context:observance")
	_context(f.field, "context:personal")
	not _context(f.field, "context:software")
}

# A topic word beside a word for someone's job ("Es enfermera de quirófano", "Jest adwokatką od
# prawa karnego", "Fa il farmacista ospedaliero") names the job, not the person's health or record:
# occupation_contexts names, per context, the topic classes it clears (policy data). Terms still count.
_about_occupation(field, class) if {
	some context, classes in forbidden.occupation_contexts
	class in classes
	_context(field, concat(":", ["context", context]))
}

# A holiday named with its faith ("Pâques orthodoxe", "jüdisches Neujahr", "prawosławna Wielkanoc",
# "ortodox påsk") is a date on a calendar, as "Pâques" alone is: holiday_contexts names, per context,
# the topic classes it clears (policy data), so a support-hours note is judged alike whichever
# church's Easter it names. Terms ("ist orthodox", "jest prawosławna") still count.
_holiday_of_a_faith(field, class) if {
	some context, classes in forbidden.holiday_contexts
	class in classes
	_context(field, concat(":", ["context", context]))
}

# A topic word in the subject of a work ("eine Doku über politische Gefangene", "un livre sur
# l'histoire de la psychiatrie", "en dokumentär om apartheid") names what the work is about, not
# the person who reads or watches it: media_contexts names, per context, the topic classes it clears
# (policy data). Terms still count ("ein Buch über Depression, weil ich depressiv bin").
_about_a_work(field, class) if {
	some context, classes in forbidden.media_contexts
	class in classes
	_context(field, concat(":", ["context", context]))
}

# A condition in a text about a pet or the vet ("Kat Pim krijgt om 18:00 zijn insuline", "le chien
# suit une chimio") is the animal's, even when its owner is named: animal_contexts names, per
# context, the classes it clears (policy data). A person's condition beside a pet is then missed;
# measured on the corpora, pets with conditions are far more common in memories than that.
_about_animal(field, class) if {
	some context, classes in forbidden.animal_contexts
	class in classes
	_context(field, concat(":", ["context", context]))
}

# seed 000 §3: bans that hold in one category only (credentials by name in PROJECT_CONFIG;
# location, health and personal schedule in REMINDER). Findings of class ban:<CATEGORY>:<kind>.
# A pet's vaccination or medicine in a reminder is the animal's health, as for the classes (animal_contexts).
violations contains _violation("C19-CAT", sprintf("%s_not_allowed_in_%s", [kind, lower(category)])) if {
	operation.is_write
	category := input.item.category
	is_string(category)
	forbidden.category_bans[category]
	some f in content.findings
	parts := split(f.class, ":")
	count(parts) == 3
	parts[0] == "ban"
	parts[1] == category
	kind := parts[2]
	not _about_animal(f.field, kind)
}

# §4.9: tool output is untrusted, whatever it says.
violations contains _violation("C19-TOOL", "tool_output_origin") if {
	content.checked
	_origin in forbidden.untrusted_origins
}

_origin := input.item.origin

_origin := input.origin if not input.item.origin

_violation(rule, detail) := {"stop_reason": "FORBIDDEN_CATEGORY", "rule": rule, "detail": detail}

# Issue 21 item 3: a text in a language that no lexicon covers. By default the detector judges it
# with every language's lexicon (forbidden.language_policy.uncovered); a deployment that stores
# only what it can read sets refuse_uncovered and such a text is refused. English is covered by
# the patterns and topics of forbidden/data.json, the others by forbidden.languages.<lang>.
violations contains _violation("C19-FORBID", sprintf("uncovered_language_in_%s", [f.field])) if {
	forbidden.language_policy.refuse_uncovered == true
	some f in content.findings
	startswith(f.class, "language:")
	not _covered_language(substring(f.class, 9, -1))
}

_covered_language("en")

# eld could not tell (digits, a word or two): judged as any text is, never refused for its language.
_covered_language("und")

_covered_language(lang) if forbidden.languages[lang]
