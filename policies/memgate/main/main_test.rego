package memgate.main_test

import data.memgate.main

_agent := {"id": "agent-1", "tenant": "t1", "subjects": ["alice"], "roles": ["agent"]}

_now := 1780272000000 # 2026-06-01T00:00:00Z

_live_target := {"found": true, "status": "active", "expires_at_ms": 1798761600000}

_store(item) := {
	"operation": "STORE",
	"contract": "governed",
	"principal": _agent,
	"subject_id": "alice",
	"item": object.union(
		{
			"category": "PREFERENCE", "key": "tone", "value": "concise answers",
			"source_kind": "USER_EXPLICIT", "ttl_class": "LONG",
			"consent": {"explicit": true},
		},
		item,
	),
}

test_valid_store_succeeds if {
	d := main.decision with input as _store({})
	d.stop_reason == "SUCCESS_STORED"
	d.explanations == []
	d.contract_version == "19.1.0"
}

test_success_code_per_operation[note] if {
	some note, c in {
		"C19-OPS READ": {"op": "READ", "want": "SUCCESS_READ"},
		"C19-OPS LIST": {"op": "LIST", "want": "SUCCESS_LISTED"},
		"C19-OPS DELETE": {"op": "DELETE", "want": "SUCCESS_DELETED"},
	}
	d := main.decision with input as {
		"operation": c.op, "contract": "governed", "principal": _agent, "subject_id": "alice",
		"item": {"memory_id": "m1"}, "target": _live_target, "now_ms": _now,
	}
	d.stop_reason == c.want
}

test_unknown_category_is_forbidden if {
	d := main.decision with input as _store({"category": "HEALTH_NOTE"})
	d.stop_reason == "FORBIDDEN_CATEGORY"
	d.explanations == ["C19-CAT: category_not_allowed"]
}

test_category_value_bound[note] if {
	some note, c in {
		"C19-CAT PREFERENCE 512 ok": {"cat": "PREFERENCE", "n": 512, "want": "SUCCESS_STORED"},
		"C19-CAT PREFERENCE 513 exceeds": {"cat": "PREFERENCE", "n": 513, "want": "BOUNDS_EXCEEDED"},
		"C19-CAT CONSTRAINT 257 exceeds": {"cat": "CONSTRAINT", "n": 257, "want": "BOUNDS_EXCEEDED"},
		"C19-CAT PROJECT_CONFIG 1024 ok": {"cat": "PROJECT_CONFIG", "n": 1024, "want": "SUCCESS_STORED"},
		"C19-ITEM value 1025 exceeds": {"cat": "PROJECT_CONFIG", "n": 1025, "want": "BOUNDS_EXCEEDED"},
	}
	value := concat("", [x | some _ in numbers.range(1, c.n); x := "x"])
	d := main.decision with input as _store({"category": c.cat, "value": value, "ttl_class": "MEDIUM"})
	d.stop_reason == c.want
}

test_source_ref_bound[note] if {
	some note, c in {
		"C19-ITEM source_ref 256 ok": {"n": 256, "want": "SUCCESS_STORED"},
		"C19-ITEM source_ref 257 exceeds": {"n": 257, "want": "BOUNDS_EXCEEDED"},
	}

	# two structure ids (the pattern bounds one id at 128 after its prefix), n characters in all
	ref := concat(",", [_sevens("doc:", 123), _sevens("doc:", c.n - 132)])
	d := main.decision with input as _store({"category": "PROJECT_CONFIG", "source_kind": "CITED_SOURCE", "source_ref": ref, "ttl_class": "MEDIUM"})
	d.stop_reason == c.want
}

_sevens(prefix, n) := concat("", array.concat([prefix], [x | some _ in numbers.range(1, n); x := "7"]))

test_ttl_not_allowed_for_category if {
	d := main.decision with input as _store({"category": "REMINDER", "ttl_class": "LONG"})
	d.stop_reason == "TTL_NOT_ALLOWED"
}

test_unknown_ttl_is_schema_invalid if {
	d := main.decision with input as _store({"ttl_class": "FOREVER"})
	d.stop_reason == "SCHEMA_INVALID"
}

test_control_character_is_schema_invalid if {
	d := main.decision with input as _store({"value": "a\u0007b"})
	d.stop_reason == "SCHEMA_INVALID"
}

test_missing_target_is_not_found if {
	d := main.decision with input as {
		"operation": "READ", "contract": "governed", "principal": _agent, "subject_id": "alice",
		"item": {"memory_id": "m1"}, "target": {"found": false},
	}
	d.stop_reason == "NOT_FOUND"
}

test_foreign_subject_read_is_not_found if {
	d := main.decision with input as {
		"operation": "READ", "contract": "governed", "principal": _agent, "subject_id": "bob",
		"item": {"memory_id": "m1"}, "target": _live_target, "now_ms": _now,
	}
	d.stop_reason == "NOT_FOUND"
}

test_foreign_subject_store_is_refused if {
	d := main.decision with input as object.union(_store({}), {"subject_id": "bob"})
	d.stop_reason == "POLICY_DISABLED"
}

test_auditor_cannot_store if {
	d := main.decision with input as object.union(_store({}), {"principal": object.union(_agent, {"roles": ["auditor"]})})
	d.stop_reason == "POLICY_DISABLED"
}

test_admin_acts_for_any_subject if {
	admin := object.union(_agent, {"roles": ["admin"], "subjects": []})
	d := main.decision with input as object.union(_store({}), {"principal": admin})
	d.stop_reason == "SUCCESS_STORED"
}

test_priority_forbidden_over_bounds if {
	value := concat("", [x | some _ in numbers.range(1, 2000); x := "x"])
	d := main.decision with input as _store({"category": "HEALTH_NOTE", "value": value})
	d.stop_reason == "FORBIDDEN_CATEGORY"
}

test_unknown_operation_fails_closed if {
	d := main.decision with input as object.union(_store({}), {"operation": "DROP"})
	d.stop_reason == "INTERNAL_INCONSISTENCY"
}

test_target_liveness[note] if {
	some note, c in {
		"C19-TTL expired item is not found": {"status": "active", "expires_at_ms": 1780271999000, "want": "NOT_FOUND"},
		"D1 deleted item is not found": {"status": "deleted", "expires_at_ms": 1798761600000, "want": "NOT_FOUND"},
		"C19-OPS live item is read": {"status": "active", "expires_at_ms": 1780272001000, "want": "SUCCESS_READ"},
	}
	d := main.decision with input as {
		"operation": "READ", "contract": "governed", "principal": _agent, "subject_id": "alice", "now_ms": _now,
		"item": {"memory_id": "m1"}, "target": {"found": true, "status": c.status, "expires_at_ms": c.expires_at_ms},
	}
	d.stop_reason == c.want
}

# Only the rules of the contract asked answer (policies/memgate/contracts/<name>/): another
# contract's violations are not even evaluated.
test_c19_stop_only_the_asked_contracts_rules_answer if {
	other := {{"stop_reason": "SCHEMA_INVALID", "rule": "TEST", "detail": "other_contract"}}
	d := main.decision with input as _store({})
		with data.memgate.contracts.someone_else.violations as other
	d.stop_reason == "SUCCESS_STORED"
	mine := main.decision with input as _store({})
		with data.memgate.contracts.governed.violations as other
	mine.stop_reason == "SCHEMA_INVALID"
}
