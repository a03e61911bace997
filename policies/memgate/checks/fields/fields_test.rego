package memgate.checks.fields_test

import data.memgate.checks.fields

_fact(field, length) := {"field": field, "path": field, "kind": "text", "length": length, "wrong_type": false, "ill_formed": false, "control": false, "pattern_mismatch": false}

_bounds := {"c": {"fields": {"reason": 10}}}

test_ill_formed_text_is_schema_invalid if {
	f := object.union(_fact("reason", 3), {"ill_formed": true})
	v := fields.violations with input as {"contract": "c", "fields": [f]} with data.memgate.contracts as _bounds
	{x.stop_reason | some x in v} == {"SCHEMA_INVALID"}
}

test_too_long_is_bounds_exceeded if {
	v := fields.violations with input as {"contract": "c", "fields": [_fact("reason", 11)]} with data.memgate.contracts as _bounds
	{x.detail | some x in v} == {"reason_too_long"}
}

test_within_bound_passes if {
	count(fields.violations) == 0 with input as {"contract": "c", "fields": [_fact("reason", 10)]} with data.memgate.contracts as _bounds
}

test_unbounded_field_fails_closed if {
	v := fields.violations with input as {"contract": "c", "fields": [_fact("note", 1)]} with data.memgate.contracts as _bounds
	{x.stop_reason | some x in v} == {"INTERNAL_INCONSISTENCY"}
}

test_wrong_type_is_schema_invalid_unless_the_contract_types_by_schema if {
	f := object.union(_fact("reason", 0), {"wrong_type": true})
	v := fields.violations with input as {"contract": "c", "fields": [f]} with data.memgate.contracts as _bounds
	{x.detail | some x in v} == {"reason_wrong_type"}
	typed := {"c": {"fields": {"reason": 10}, "types_by_schema": true}}
	count(fields.violations) == 0 with input as {"contract": "c", "fields": [f]} with data.memgate.contracts as typed
}

test_unknown_field_is_schema_invalid_at_its_pointer if {
	v := fields.violations with input as {"contract": "c", "fields": [], "unknown_fields": ["/memory/confidance", "/a~1b"]} with data.memgate.contracts as _bounds
	{[x.stop_reason, x.detail, x.pointer] | some x in v} == {["SCHEMA_INVALID", "unknown_field", "/memory/confidance"], ["SCHEMA_INVALID", "unknown_field", "/a~1b"]}
}

test_no_unknown_field_no_violation if {
	count(fields.violations) == 0 with input as {"contract": "c", "fields": [_fact("reason", 1)], "unknown_fields": []} with data.memgate.contracts as _bounds
}

test_if1_valid_a_document_the_door_refused_is_schema_invalid_at_its_root[reason] if {
	some reason, message in {
		"too_large": "the document is larger than 1024 bytes",
		"too_deep": "the document is nested deeper than 64 levels",
	}
	limit := {"too_large": 1024, "too_deep": 64}[reason]
	v := fields.violations with input as {"contract": "c", "fields": [], "door_refusal": {"reason": reason, "limit": limit}}
		with data.memgate.contracts as _bounds
	v == {{
		"stop_reason": "SCHEMA_INVALID", "rule": "IF1-VALID", "detail": concat("", ["document_", reason]),
		"pointer": "", "message": message,
	}}
}
