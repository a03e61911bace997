# C19-FORBID, profiling by shape (seed 000 §4.8): a statement that says of a person what they
# are ("Dana is a bit of a pushover", "my landlord strikes me as a cheapskate", "er ist total
# unzuverlässig"). The detector (src/detectors/trait-statements.ts) reports a trait_statement
# finding with facts: who the subject is, the frame (copula, perception, superlative, "the type
# who"), the valence of the complement and its shape. data.memgate.traits says which facts make
# a judgement; praise scoped to a task ("great at code review") or a role ("the team lead") is a
# work note, and a story's character, a pet or software talk is not a person.
package memgate.checks.forbidden

import data.memgate.forbidden
import data.memgate.lib.content
import data.memgate.traits

violations contains _violation("C19-FORBID", sprintf("profiling_in_%s", [f.field])) if {
	some f in content.findings
	f.class == "trait_statement"
	_about_a_person(f)
	_judges(f)
	not _trait_cleared(f)
}

_about_a_person(f) if {
	some fact in f.facts
	fact in traits.subjects
}

_judges(f) if {
	some fact in f.facts
	fact in traits.judging_facts
}

# An intensified word the valence lists do not know ("so judgmental", "pretty flaky").
_judges(f) if {
	"valence:none" in f.facts
	some fact in f.facts
	fact in traits.judging_when_unvalued
}

# A frame that judges whoever it is said of ("she tends to ...", "mi suocera tende a ..."), but of a
# name only when a pronoun shows the name is a person's ("Tom tends to cave ..., so he's ..."), not a
# product's ("Jira tends to ...").
_judges(f) if {
	not "subject:name" in f.facts
	some fact in f.facts
	fact in traits.judging_frames_of_people
}

_judges(f) if {
	some fact in f.facts
	fact in traits.judging_frames_of_people
	some evidence in f.facts
	evidence in traits.name_is_a_person
}

# Praise of a person, unless scoped to a task or naming a role.
_judges(f) if {
	"valence:positive" in f.facts
	not _positive_excused(f)
}

_positive_excused(f) if {
	some fact in f.facts
	fact in traits.positive_judges_unless
}

_trait_cleared(f) if {
	some fact in f.facts
	fact in traits.clearing_facts
}

_trait_cleared(f) if _about_animal(f.field, "profiling")

# A job named with an evaluative word ("a criminal defence lawyer") is the job, not a judgement.
_trait_cleared(f) if {
	some context in traits.clearing_contexts
	_context(f.field, context)
}

# Software talk about no person ("Jira is clunky"), as for every profiling finding.
_trait_cleared(f) if {
	not _context(f.field, "context:personal")
	"profiling" in forbidden.near_miss_contexts.software
	_context(f.field, "context:software")
}
