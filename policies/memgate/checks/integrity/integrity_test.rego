package memgate.checks.integrity_test

import data.memgate.main

_agent := {"id": "bot", "tenant": "acme", "subjects": ["alice"], "roles": ["agent"]}

_store := {
	"contract": "governed", "operation": "STORE", "principal": _agent, "subject_id": "alice",
	"integrity": {"chain_broken": true, "broken_seq": 3},
	"item": {"category": "PREFERENCE", "key": "k", "value": "v", "source_kind": "USER_EXPLICIT", "ttl_class": "LONG", "consent": {"explicit": true}},
}

test_mp_break_refuses_writes_of_a_broken_tenant if {
	d := main.decision with input as _store
	d.stop_reason == "INTERNAL_INCONSISTENCY"
	d.explanations == ["MP-BREAK: event_chain_unverified"]
}

test_mp_break_still_allows_reads if {
	inp := object.union(_store, {"operation": "READ", "item": {"memory_id": "m"}, "target": {"found": true, "status": "active", "expires_at_ms": 10}, "now_ms": 1})
	main.decision.stop_reason == "SUCCESS_READ" with input as inp
}

test_mp_break_unknown_contract_operations_are_refused if {
	inp := object.union(_store, {"contract": "ledger", "operation": "LIST_ITEMS"})
	d := main.decision with input as inp
	d.stop_reason == "INTERNAL_INCONSISTENCY"
}
