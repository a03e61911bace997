package memgate.contracts.governed_test

import data.memgate.contract
import data.memgate.contracts.governed
import data.memgate.main

_agent := {"id": "agent-1", "tenant": "t1", "subjects": ["alice"], "roles": ["agent"]}

_set(change) := {"operation": "SET_SETTINGS", "contract": "governed", "settings_change": change}

_list(l) := {"operation": "LIST", "contract": "governed", "list": l}

_fact(field, length, extra) := object.union(
	{"field": field, "path": field, "kind": "text", "length": length, "wrong_type": false, "ill_formed": false, "control": false, "pattern_mismatch": false},
	extra,
)

_store(texts, fields, findings) := {
	"operation": "STORE",
	"contract": "governed",
	"principal": _agent,
	"subject_id": "alice",
	"item": {
		"category": "PREFERENCE", "key": "tone", "value": "concise answers",
		"source_kind": "USER_EXPLICIT", "ttl_class": "LONG", "source_ref": null,
		"origin": "USER", "consent": {"explicit": true, "evidence_ref": null},
	},
	"texts": texts,
	"fields": fields,
	"facts": {"findings": findings},
	"settings": {"tenant": null, "subject": null},
	"counts": {"items": 0, "writes_in_window": 0},
}

_delete(reason, findings) := {
	"operation": "DELETE",
	"contract": "governed",
	"principal": _agent,
	"subject_id": "alice",
	"item": {"memory_id": "mem_1", "expected_version": null},
	"target": {"found": true, "status": "active", "version": 1, "expires_at_ms": 1798761600000},
	"now_ms": 1780272000000,
	"texts": {"reason": reason},
	"fields": [_fact("reason", count(reason), {})],
	"facts": {"findings": findings},
}

test_c19_policy_settings_values[note] if {
	some note, c in {
		"C19-POLICY nothing given": {"change": {"scope": "tenant"}, "want": {"SCHEMA_INVALID"}},
		"C19-POLICY enabled must be boolean": {"change": {"enabled": "no"}, "want": {"SCHEMA_INVALID"}},
		"C19-CAP negative cap": {"change": {"max_items_per_subject": -1}, "want": {"BOUNDS_EXCEEDED"}},
		"C19-CAP fractional cap": {"change": {"max_writes_per_window": 1.5}, "want": {"SCHEMA_INVALID"}},
		"C19-CAP cap over the limit": {"change": {"max_writes_per_window": 1000001}, "want": {"BOUNDS_EXCEEDED"}},
		"C19-CAP zero is a valid cap": {"change": {"max_items_per_subject": 0}, "want": set()},
		"C19-POLICY switch off": {"change": {"enabled": false}, "want": set()},
	}
	{v.stop_reason | some v in governed.violations with input as _set(c.change)} == c.want
}

test_c19_ops_list_paging[note] if {
	some note, c in {
		"C19-OPS limit within bounds": {"list": {"limit": 20, "cursor_valid": null}, "want": set()},
		"C19-OPS limit over the maximum": {"list": {"limit": 101, "cursor_valid": null}, "want": {"BOUNDS_EXCEEDED"}},
		"C19-OPS limit zero": {"list": {"limit": 0, "cursor_valid": null}, "want": {"SCHEMA_INVALID"}},
		"C19-OPS a cursor memgate did not issue": {"list": {"limit": 20, "cursor_valid": false}, "want": {"SCHEMA_INVALID"}},
	}
	{v.stop_reason | some v in governed.violations with input as _list(c.list)} == c.want
}

# C19-ITEM: the declared fields' bounds repeat the item bounds of the contract; they must not drift.
test_c19_item_field_bounds_match_the_contract if {
	every name, limit in contract.bounds {
		governed.fields[name] == limit
	}
}

test_c19_item_ill_formed_unicode_is_schema_invalid[field] if {
	some field in ["key", "value", "source_ref"]
	d := main.decision with input as _store({field: "x"}, [_fact(field, 1, {"ill_formed": true})], [])
	d.stop_reason == "SCHEMA_INVALID"
	sprintf("C19-ITEM: %s_ill_formed_unicode", [field]) in d.explanations
}

test_c19_forbid_a_card_number_in_a_delete_reason_is_refused if {
	d := main.decision with input as _delete("card 4111 1111 1111 1111", [{"field": "reason", "class": "biometrics_ids", "label": "card_number_luhn"}])
	d.stop_reason == "FORBIDDEN_CATEGORY"
	d.outcome == "refuse"
}

test_c19_ops_a_plain_delete_reason_is_allowed if {
	d := main.decision with input as _delete("asked to forget", [])
	d.stop_reason == "SUCCESS_DELETED"
	d.outcome == "allow"
}
