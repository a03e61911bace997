# C19-PRIO: seed 000 §7 (extended by SPEC D3): when several stop conditions hold, the
# highest answers. Every adjacent pair of the order, first as bare violations (the ranking
# itself), then with real inputs wherever one item can meet both conditions.
package memgate.main.priority_test

import data.memgate.contract
import data.memgate.main

_agent := {"id": "agent-1", "tenant": "t1", "subjects": ["alice"], "roles": ["agent"]}

_now := 1780272000000

_live := {"found": true, "status": "active", "version": 1, "expires_at_ms": 1798761600000}

_item := {
	"category": "PREFERENCE", "key": "tone", "value": "concise answers",
	"source_kind": "USER_EXPLICIT", "ttl_class": "LONG", "origin": "USER",
	"consent": {"explicit": true},
}

_write(op, item, extra) := object.union(
	{
		"operation": op, "contract": "governed", "principal": _agent, "subject_id": "alice", "now_ms": _now,
		"item": object.union(_item, item), "texts": {"key": "tone", "value": "concise answers"},
		"facts": {"findings": []}, "settings": {"tenant": null, "subject": null},
		"counts": {"items": 0, "writes_in_window": 0}, "target": _live,
	},
	extra,
)

_finding(class) := {"field": "value", "class": class, "label": "test"}

test_c19_prio_adjacent_pairs_rank[note] if {
	some i in numbers.range(0, count(contract.priority) - 2)
	high := contract.priority[i]
	low := contract.priority[i + 1]
	note := sprintf("C19-PRIO %s over %s", [high, low])
	d := main.decision with input as _write("STORE", {}, {})
		with data.memgate.checks.pair_low.violations as {{"stop_reason": low, "rule": "TEST", "detail": "low"}}
		with data.memgate.checks.pair_high.violations as {{"stop_reason": high, "rule": "TEST", "detail": "high"}}
	d.stop_reason == high
}

test_c19_prio_real_pairs[note] if {
	some note, c in {
		"C19-PRIO INJECTION_DETECTED over FORBIDDEN_CATEGORY": {
			"in": _write("STORE", {}, {"facts": {"findings": [_finding("injection"), _finding("health")]}}),
			"high": "INJECTION_DETECTED", "low": "FORBIDDEN_CATEGORY",
		},
		"C19-PRIO FORBIDDEN_CATEGORY over POLICY_DISABLED": {
			"in": _write("STORE", {}, {"facts": {"findings": [_finding("location")]}, "settings": {"tenant": {"enabled": false}}}),
			"high": "FORBIDDEN_CATEGORY", "low": "POLICY_DISABLED",
		},
		"C19-PRIO POLICY_DISABLED over ENTITLEMENT_CAP": {
			"in": _write("STORE", {}, {"settings": {"subject": {"enabled": false}}, "counts": {"items": 5000, "writes_in_window": 0}}),
			"high": "POLICY_DISABLED", "low": "ENTITLEMENT_CAP",
		},
		"C19-PRIO ENTITLEMENT_CAP over MISSING_EXPLICIT_CONSENT": {
			"in": _write("STORE", {"consent": {"explicit": false}}, {"counts": {"items": 0, "writes_in_window": 100}}),
			"high": "ENTITLEMENT_CAP", "low": "MISSING_EXPLICIT_CONSENT",
		},
		"C19-PRIO MISSING_EXPLICIT_CONSENT over SCHEMA_INVALID (D3a: source kind the category does not allow)": {
			"in": _write("STORE", {"category": "PROJECT_CONFIG", "consent": null, "source_ref": "the readme"}, {}),
			"high": "MISSING_EXPLICIT_CONSENT", "low": "SCHEMA_INVALID",
		},
		"C19-PRIO NO_SOURCE_DERIVED_FACT over SCHEMA_INVALID": {
			"in": _write("STORE", {"source_kind": "DERIVED_UNVERIFIED", "key": ""}, {}),
			"high": "NO_SOURCE_DERIVED_FACT", "low": "SCHEMA_INVALID",
		},
		"C19-PRIO SCHEMA_INVALID over BOUNDS_EXCEEDED": {
			"in": _write("STORE", {"key": "", "value": concat("", [x | some _ in numbers.range(1, 600); x := "v"])}, {}),
			"high": "SCHEMA_INVALID", "low": "BOUNDS_EXCEEDED",
		},
		"C19-PRIO BOUNDS_EXCEEDED over TTL_NOT_ALLOWED": {
			"in": _write("STORE", {"category": "REMINDER", "ttl_class": "LONG", "value": concat("", [x | some _ in numbers.range(1, 600); x := "v"])}, {}),
			"high": "BOUNDS_EXCEEDED", "low": "TTL_NOT_ALLOWED",
		},
		"C19-PRIO TTL_NOT_ALLOWED over NOT_FOUND": {
			"in": _write("UPDATE", {"category": "REMINDER", "ttl_class": "LONG", "memory_id": "m1"}, {"target": {"found": false}}),
			"high": "TTL_NOT_ALLOWED", "low": "NOT_FOUND",
		},
		"C19-PRIO NOT_FOUND over SUCCESS_UPDATED": {
			"in": _write("UPDATE", {"memory_id": "m1"}, {"target": {"found": false}}),
			"high": "NOT_FOUND", "low": "SUCCESS_UPDATED",
		},
		"C19-PRIO INTERNAL_INCONSISTENCY over INJECTION_DETECTED (unknown operation)": {
			"in": _write("DROP", {}, {"facts": {"findings": [_finding("injection")]}}),
			"high": "INTERNAL_INCONSISTENCY", "low": "INJECTION_DETECTED",
		},
	}
	d := main.decision with input as c.in
	d.stop_reason == c.high
	_holds(c)
}

# The lower condition really held (except where the higher one makes it unreachable).
_holds(c) if c.low == "SUCCESS_UPDATED"

_holds(c) if c.high == "INTERNAL_INCONSISTENCY"

_holds(c) if {
	c.low in {v.stop_reason | some v in main.violations with input as c.in}
}

test_c19_prio_is_deterministic if {
	inp := _write("STORE", {"source_kind": "DERIVED_UNVERIFIED", "ttl_class": "FOREVER"}, {"facts": {"findings": [_finding("health"), _finding("injection")]}})
	d1 := main.decision with input as inp
	d2 := main.decision with input as inp
	d1 == d2
	d1.stop_reason == "INJECTION_DETECTED"
}
