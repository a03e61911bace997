# Issue 11 §2: the decision says what to do (allow | hold | refuse), so TypeScript never reads
# explanations. The violations are stood in for (`with`), so these tests prove main.rego's
# mapping whatever the contracts' own rules and input shapes are.
package memgate.main.outcome_test

import data.memgate.main

_user := {"id": "user-1", "tenant": "t1", "subjects": ["alice"], "roles": ["user"], "agent_type": null, "job": null}

_input(contract, operation) := {
	"contract": contract, "operation": operation, "principal": _user, "subject_id": "alice",
	"now_ms": 1780272000000, "integrity": {"chain_broken": false, "broken_seq": null},
}

# An operation of a stand-in contract: its success code is the one under test.
_ops := {
	"DONE": {"success": "SUCCESS_STORED", "write": true, "targeted": false, "roles": ["user"]},
	"HELD": {"success": "MISSING_EXPLICIT_CONSENT", "write": true, "targeted": false, "roles": ["user"]},
}

_v(stop_reason, detail) := {"stop_reason": stop_reason, "rule": "TEST", "detail": detail}

_held(stop_reason, detail) := object.union(_v(stop_reason, detail), {"hold": true})

# The decision for the stand-in contract's operation, given exactly these violations.
_decide(operation, violations) := d if {
	d := main.decision with input as _input("outcome_test", operation)
		with data.memgate.checks as {"outcome_test": {"violations": violations}}
		with data.memgate.contracts.outcome_test as {"operations": _ops}
}

test_c19_stop_success_allows if {
	d := _decide("DONE", set())
	d.outcome == "allow"
	d.stop_reason == "SUCCESS_STORED"
	d.explanations == []
}

test_d3_a_held_operations_success_holds if {
	d := _decide("HELD", set())
	d.outcome == "hold"
	d.stop_reason == "MISSING_EXPLICIT_CONSENT"
	d.explanations == []
}

# The real ledger PROPOSE, as its contract declares it: its success is held for the person.
test_p54_a_ledger_propose_success_holds if {
	d := main.decision with input as object.union(_input("ledger", "PROPOSE"), {"principal": object.union(_user, {"roles": ["adapter"]})})
		with data.memgate.checks as {}
		with data.memgate.contracts.ledger.violations as set()
	d.outcome == "hold"
	d.stop_reason == "MISSING_EXPLICIT_CONSENT"
}

test_sg_gate_a_winning_violation_marked_hold_holds if {
	d := _decide("DONE", {_held("MISSING_EXPLICIT_CONSENT", "held_as_proposal")})
	d.outcome == "hold"
	d.stop_reason == "MISSING_EXPLICIT_CONSENT"
	d.explanations == ["TEST: held_as_proposal"]
}

test_c19_stop_refusals_refuse[note] if {
	some note, violations in {
		"C19-STOP a refusal refuses": {_v("SCHEMA_INVALID", "x")},
		"C19-CONSENT a consent refusal not marked hold refuses": {_v("MISSING_EXPLICIT_CONSENT", "explicit_consent_missing")},
		"C19-STOP hold: false refuses": {object.union(_v("MISSING_EXPLICIT_CONSENT", "x"), {"hold": false})},
		"C19-STOP hold must be true, not truthy": {object.union(_v("MISSING_EXPLICIT_CONSENT", "x"), {"hold": "yes"})},
	}
	d := _decide("DONE", violations)
	d.outcome == "refuse"
}

test_c19_prio_hold_on_a_violation_that_does_not_win_does_not_hold if {
	d := _decide("DONE", {_held("MISSING_EXPLICIT_CONSENT", "held_as_proposal"), _v("INJECTION_DETECTED", "injection_in_text")})
	d.outcome == "refuse"
	d.stop_reason == "INJECTION_DETECTED"
	d.explanations == ["TEST: injection_in_text"]
}

# Two violations share the winning stop reason and only one is a hold: refusing is the safe answer.
test_sg_gate_hold_needs_every_winning_violation_marked if {
	d := _decide("DONE", {_held("MISSING_EXPLICIT_CONSENT", "held_as_proposal"), _v("MISSING_EXPLICIT_CONSENT", "other")})
	d.outcome == "refuse"
	d.explanations == ["TEST: held_as_proposal", "TEST: other"]
}

test_c19_fail_an_unranked_stop_reason_fails_closed if {
	d := _decide("DONE", {_held("NOT_A_CODE", "x")})
	d.outcome == "refuse"
	d.stop_reason == "INTERNAL_INCONSISTENCY"
	d.explanations == ["C19-FAIL: no_decision"]
}

# With the real checks: a valid governed STORE allows, a forbidden one refuses.
test_c19_stop_real_store_allows_and_refuses if {
	store := object.union(_input("governed", "STORE"), {
		"principal": object.union(_user, {"roles": ["agent"]}),
		"item": {
			"category": "PREFERENCE", "key": "tone", "value": "concise answers", "source_kind": "USER_EXPLICIT",
			"ttl_class": "LONG", "origin": "USER", "consent": {"explicit": true},
		},
		"texts": {"key": "tone", "value": "concise answers"}, "facts": {"findings": []},
		"settings": {"tenant": null, "subject": null}, "counts": {"items": 0, "writes_in_window": 0},
	})
	allowed := main.decision with input as store
	allowed.outcome == "allow"
	refused := main.decision with input as object.union(store, {"facts": {"findings": [{"field": "value", "class": "health", "label": "t"}]}})
	refused.outcome == "refuse"
	refused.stop_reason == "FORBIDDEN_CATEGORY"
}
