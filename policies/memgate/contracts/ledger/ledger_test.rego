package memgate.checks.ledger_test

import data.memgate.checks.ledger

_propose(kind, source) := {
	"contract": "ledger",
	"operation": "PROPOSE",
	"principal": {"roles": ["agent"]},
	"proposal": {"text": "I prefer short answers", "kind": kind, "source": source},
}

_source := {"source_type": "phase3_reflection", "source_id": "refl-1", "note": "After Phase 3 summary"}

test_p54_kind_allowlist if {
	count(ledger.violations) == 0 with input as _propose("GOAL", _source)
	{"stop_reason": "SCHEMA_INVALID", "rule": "P54-KIND", "detail": "kind_not_allowed"} in ledger.violations with input as _propose("TRAIT", _source)
}

test_p54_source_type_from_data if {
	{"stop_reason": "SCHEMA_INVALID", "rule": "P54-SOURCE", "detail": "source_type_not_allowed"} in ledger.violations with input as _propose("GOAL", object.union(_source, {"source_type": "chat_log"}))
}

test_p54_source_note_without_scores_signals_classifications[note] if {
	some note in [
		"low_energy signal fired",
		"confidence 0.82",
		"classified as avoidant",
		"engagementScore high",
		"scored 7/10",
	]
	some v in ledger.violations with input as _propose("GOAL", object.union(_source, {"note": note}))
	v.rule == "P54-SOURCE"
}

test_p54_source_plain_note_passes[note] if {
	some note in ["After Phase 3 summary", "From the reflection on Tuesday's session", "After Phase 5.3 interpretation"]
	count(ledger.violations) == 0 with input as _propose("GOAL", object.union(_source, {"note": note}))
}

test_p54_owner_only_users_act_on_proposals if {
	{"stop_reason": "NOT_FOUND", "rule": "P54-OWNER", "detail": "no_such_proposal"} in ledger.violations with input as {"contract": "ledger", "operation": "DECLINE", "principal": {"roles": ["agent", "admin"]}}
	count(ledger.violations) == 0 with input as {"contract": "ledger", "operation": "DECLINE", "principal": {"roles": ["user"]}}
}

test_p54_e_unresolved_selection_is_not_found if {
	{"stop_reason": "NOT_FOUND", "rule": "P54-E", "detail": "selected_item_not_found"} in ledger.violations with input as {"contract": "ledger", "operation": "SELECT", "principal": {"roles": ["user"]}, "selection": {"requested": 2, "unresolved": 1}}
}

test_other_contracts_untouched if {
	count(ledger.violations) == 0 with input as {"contract": "governed", "operation": "STORE", "principal": {"roles": ["agent"]}}
}
