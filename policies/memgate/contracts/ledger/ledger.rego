# METADATA
# description: |
#   The person's ledger (seed 003, P54-*): what a proposal must carry, who may act on
#   proposals and ledger items, the final-text validator and how a selection answers.
#   Kinds, source types, field bounds and the patterns of the final-text validator and of
#   the provenance note are data (data.json beside this file). The lexicon detector matches
#   the patterns (the wasm host would compile every regex on every evaluation) and reports
#   findings of class `ledger:<lexicon>`; these rules decide from the findings.
package memgate.contracts.ledger

import data.memgate.lib.operation

_ledger if input.contract == "ledger"

_op(name) if {
	_ledger
	input.operation == name
}

_blank(s) if trim_space(s) == ""

_is_user if "user" in input.principal.roles

_text(field) := object.get(object.get(input, "texts", {}), field, "")

_proposal := object.get(input, "proposal", {})

# The findings of one of the ledger's lexicons, in the fields the lexicon is declared for.
_findings(lexicon) := [f |
	some f in object.get(object.get(input, "facts", {}), "findings", [])
	f.class == concat(":", ["ledger", lexicon])
	f.field in data.memgate.contracts.ledger.lexicons[lexicon].fields
]

# "<group>:<rule id>" -> "<rule id>"
_rule_id(finding) := split(finding.label, ":")[1]

# P54-KIND only the four kinds of the allowlist.
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "P54-KIND", "detail": "kind_not_allowed"} if {
	_op("PROPOSE")
	not object.get(_proposal, "kind", "") in data.memgate.contracts.ledger.kinds
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "P54-A", "detail": "proposed_text_required"} if {
	_op("PROPOSE")
	_blank(_text("proposedText"))
}

# P54-SOURCE provenance names a source type of the allowlist ...
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "P54-SOURCE", "detail": "source_type_not_allowed"} if {
	_op("PROPOSE")
	not object.get(_proposal, "source_type", "") in data.memgate.contracts.ledger.source_types
}

# ... and its note carries no signal names, scores, classifications or machine identifiers.
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "P54-SOURCE", "detail": sprintf("note_carries_%s", [_rule_id(f)])} if {
	_op("PROPOSE")
	some f in _findings("note")
}

# Only the person who owns a proposal or an item acts on it; to anyone else it does not exist.
violations contains {"stop_reason": "NOT_FOUND", "rule": "P54-OWNER", "detail": "no_such_proposal"} if {
	not _is_user
	some op in ["APPROVE", "DECLINE"]
	_op(op)
}

violations contains {"stop_reason": "NOT_FOUND", "rule": "P54-OWNER", "detail": "no_such_memory"} if {
	_op("FORGET")
	not _is_user
}

# ... and the answer never depends on whether it exists (SPEC D3, issue 11: no existence
# oracle): anyone but a user gets the target check's own explanation too (the same object,
# so a missing target adds nothing).
violations contains {"stop_reason": "NOT_FOUND", "rule": "C19-STOP", "detail": "no_such_memory"} if {
	not _is_user
	some op in ["APPROVE", "DECLINE", "FORGET"]
	_op(op)
}

# P54-B the approved text is the item: it must be there (its bound is a field bound).
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "P54-B", "detail": "final_text_required"} if {
	_op("APPROVE")
	_blank(_text("finalText"))
}

# P54-C the final-text validator: no identity-locking phrasing, no clinical or diagnostic
# language, no authoritative framing. A refusal names the group and the rule, never the text.
violations contains {"stop_reason": "FORBIDDEN_CATEGORY", "rule": "P54-C", "detail": f.label} if {
	_op("APPROVE")
	some f in _findings("validator")
	not _innocent_reading(f)
}

# A match that covered a word of one of the validator's senses ("examples that clearly show",
# "diagnosing flaky tests") counts unless the word's linguistic facts show an innocent reading
# and no guilty one: the detector reports facts, the sense data and this rule decide.
_innocent_reading(f) if {
	sense := data.memgate.contracts.ledger.lexicons.validator.senses[f.term]
	not _guilty_reading(f, sense)
	some fact in f.facts
	fact in sense.innocent
}

_guilty_reading(f, sense) if {
	some fact in f.facts
	fact in object.get(sense, "guilty", [])
}

# MP-BREAK re-judging a stored ledger item under a new bundle (issue 13 item 5): its text, as
# `finalText`, meets the same final-text validator an approval does.
violations contains {"stop_reason": "FORBIDDEN_CATEGORY", "rule": "P54-C", "detail": f.label} if {
	_op("REJUDGE")
	some f in _findings("validator")
	not _innocent_reading(f)
}

# P54-E a forgotten, foreign or unknown selected id contributes nothing and the selection
# answers NOT_FOUND; `partial`: the items that did resolve are still given (outcome allow).
violations contains {"stop_reason": "NOT_FOUND", "rule": "P54-E", "detail": "selected_item_not_found", "partial": true} if {
	_op("SELECT")
	input.selection.unresolved > 0
}

# METADATA
# description: |
#   P54-E one answer per selected id, in the order asked (input.selection.resolved): the
#   operation's success code for an id that resolved, NOT_FOUND for one that contributes
#   nothing. It travels with the decision as `detail` (main.rego), so the gateway reports each
#   id as decided here and never assigns a stop reason itself.
decision_detail := {"selections": [_selection_answer(r) | some r in object.get(input.selection, "resolved", [])]} if _op("SELECT")

_selection_answer(true) := operation.spec.success

_selection_answer(false) := "NOT_FOUND"
