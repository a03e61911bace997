package memgate.checks.audit_test

import data.memgate.checks.audit
import data.memgate.main

_auditor := {"id": "aud-1", "tenant": "acme", "subjects": [], "roles": ["auditor"]}

_user := {"id": "alice", "tenant": "acme", "subjects": ["alice"], "roles": ["user"]}

_ok := {"chain_broken": false, "broken_seq": null}

_erase(reason, found, erased) := {
	"contract": "audit", "operation": "ERASE_MEMORY", "principal": _user, "subject_id": "alice",
	"integrity": _ok, "item": {"memory_id": "mem_1"},
	"erasure": {"reason": reason, "found": found, "erased": erased},
}

test_erase_needs_a_reason if {
	d := main.decision with input as _erase(" ", true, false)
	d.stop_reason == "SCHEMA_INVALID"
	d.explanations == ["MP-LOG: reason_required"]
}

test_erase_of_a_live_memory_succeeds if {
	main.decision.stop_reason == "SUCCESS_DELETED" with input as _erase("GDPR art. 17 request", true, false)
}

test_erase_of_an_erased_or_missing_memory_is_not_found if {
	main.decision.stop_reason == "NOT_FOUND" with input as _erase("again", true, true)
	main.decision.stop_reason == "NOT_FOUND" with input as _erase("nothing", false, false)
}

test_erase_by_an_agent_is_refused if {
	inp := object.union(_erase("x", true, false), {"principal": object.union(_user, {"roles": ["agent"]})})
	main.decision.stop_reason == "POLICY_DISABLED" with input as inp
}

test_auditor_verifies_without_a_subject if {
	inp := {"contract": "audit", "operation": "VERIFY_CHAIN", "principal": _auditor, "subject_id": "*", "integrity": _ok, "range": {"from_seq": 1, "to_seq": null}}
	main.decision.stop_reason == "SUCCESS_READ" with input as inp
}

test_verify_rejects_negative_and_reversed_ranges if {
	base := {"contract": "audit", "operation": "VERIFY_CHAIN", "principal": _auditor, "subject_id": "*", "integrity": _ok}
	main.decision.stop_reason == "SCHEMA_INVALID" with input as object.union(base, {"range": {"from_seq": -1, "to_seq": null}})
	main.decision.stop_reason == "SCHEMA_INVALID" with input as object.union(base, {"range": {"from_seq": 5, "to_seq": 2}})
}

test_an_agent_cannot_subscribe if {
	inp := {"contract": "audit", "operation": "SUBSCRIBE_EVENTS", "principal": object.union(_auditor, {"roles": ["agent"]}), "subject_id": "*", "integrity": _ok, "stream": {"after_seq": 0}}
	main.decision.stop_reason == "POLICY_DISABLED" with input as inp
}

test_acknowledge_needs_a_break if {
	admin := {"id": "root", "tenant": "acme", "subjects": [], "roles": ["admin"]}
	inp := {"contract": "audit", "operation": "ACK_CONFORMANCE", "principal": admin, "subject_id": "*", "integrity": _ok, "reason": "checked the backup"}
	main.decision.stop_reason == "NOT_FOUND" with input as inp
	main.decision.stop_reason == "SUCCESS_UPDATED" with input as object.union(inp, {"integrity": {"chain_broken": true, "broken_seq": 4}})
}

test_no_violation_outside_the_audit_contract if {
	count(audit.violations) == 0 with input as {"contract": "governed", "operation": "ERASE_MEMORY", "erasure": {"reason": ""}}
}
