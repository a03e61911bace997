# METADATA
# description: |
#   The person's ledger (seed 003, P54-*): what a proposal must carry, who may act on
#   proposals and ledger items, and how a selection is bounded. Kinds, source types,
#   bounds and the phrases a provenance note may not carry are data (memgate.ledger).
package memgate.checks.ledger

import data.memgate.ledger

_ledger if input.contract == "ledger"

_op(name) if {
	_ledger
	input.operation == name
}

_blank(s) if trim_space(s) == ""

_is_user if "user" in input.principal.roles

# P54-KIND only the four kinds of the allowlist.
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "P54-KIND", "detail": "kind_not_allowed"} if {
	_op("PROPOSE")
	not object.get(input.proposal, "kind", "") in ledger.kinds
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "P54-A", "detail": "proposed_text_required"} if {
	_op("PROPOSE")
	_blank(object.get(input.proposal, "text", ""))
}

violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "P54-A", "detail": "proposed_text_too_long"} if {
	_op("PROPOSE")
	count(object.get(input.proposal, "text", "")) > ledger.bounds.proposed_text
}

# P54-SOURCE provenance names a source type of the allowlist ...
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "P54-SOURCE", "detail": "source_type_not_allowed"} if {
	_op("PROPOSE")
	not object.get(input.proposal.source, "source_type", "") in ledger.source_types
}

violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "P54-SOURCE", "detail": sprintf("%s_too_long", [field])} if {
	_op("PROPOSE")
	some field in ["note", "source_id"]
	count(object.get(input.proposal.source, field, "")) > ledger.bounds[field]
}

# ... and its note carries no signal names, scores or classifications.
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "P54-SOURCE", "detail": sprintf("note_carries_%s", [rule.id])} if {
	_op("PROPOSE")
	note := object.get(input.proposal.source, "note", "")
	some rule in ledger.note_prohibited
	regex.match(rule.pattern, lower(note))
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "P54-SOURCE", "detail": "note_carries_machine_identifier"} if {
	_op("PROPOSE")
	regex.match(`[a-z][A-Z]`, object.get(input.proposal.source, "note", ""))
}

# Only the person who owns a proposal or an item acts on it; to anyone else it does not exist.
violations contains {"stop_reason": "NOT_FOUND", "rule": "P54-OWNER", "detail": "no_such_proposal"} if {
	some op in ["APPROVE", "DECLINE"]
	_op(op)
	not _is_user
}

violations contains {"stop_reason": "NOT_FOUND", "rule": "P54-OWNER", "detail": "no_such_memory"} if {
	some op in ["FORGET", "RESOLVE"]
	_op(op)
	not _is_user
}

# P54-B the approved text is the item: it must be there and within bounds.
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "P54-B", "detail": "final_text_required"} if {
	_op("APPROVE")
	_blank(object.get(input.approval, "final_text", ""))
}

violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "P54-B", "detail": "final_text_too_long"} if {
	_op("APPROVE")
	count(object.get(input.approval, "final_text", "")) > ledger.bounds.final_text
}

violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "P54-F", "detail": "too_many_selected"} if {
	_op("SELECT")
	input.selection.requested > ledger.bounds.selection
}

# P54-E a forgotten, foreign or unknown id contributes nothing and is answered NOT_FOUND.
violations contains {"stop_reason": "NOT_FOUND", "rule": "P54-E", "detail": "selected_item_not_found"} if {
	_op("SELECT")
	input.selection.unresolved > 0
}
