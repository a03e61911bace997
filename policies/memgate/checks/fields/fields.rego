# METADATA
# description: |
#   C19-ITEM and SPEC D3a for every declared field of every operation. The kernel reports
#   facts about each value (src/kernel/fields.ts); the bounds are data of the contract,
#   policies/memgate/contracts/<name>/data.json "fields": one per declared field name.
package memgate.checks.fields

default _bounds := {}

_bounds := data.memgate.contracts[input.contract].fields

# SPEC D3a, issue 11: ill-formed UTF-16 (lone or reversed surrogates) would be stored as U+FFFD.
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": sprintf("%s_ill_formed_unicode", [f.field])} if {
	some f in input.fields
	f.ill_formed
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": sprintf("%s_control_character", [f.field])} if {
	some f in input.fields
	f.control
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": sprintf("%s_wrong_type", [f.field])} if {
	not _types_by_schema
	some f in input.fields
	f.wrong_type
}

# A contract whose requests are JSON documents checked against their exact JSON Schema
# (seed 001: "types_by_schema": true in its data) answers a wrong type itself, at its JSON pointer.
_types_by_schema if data.memgate.contracts[input.contract].types_by_schema == true

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": sprintf("%s_malformed_id", [f.field])} if {
	some f in input.fields
	f.pattern_mismatch
}

violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "C19-ITEM", "detail": sprintf("%s_too_long", [f.field])} if {
	some f in input.fields
	f.length > _bounds[f.field]
}

# A declared field without a bound is a contract bug: fail closed rather than store it unbounded.
violations contains {"stop_reason": "INTERNAL_INCONSISTENCY", "rule": "C19-ITEM", "detail": sprintf("%s_has_no_bound", [f.field])} if {
	some f in input.fields
	f.kind != "number"
	f.kind != "boolean"
	not _bounds[f.field]
}

# IF1-VALID (issue 22 §7): a field the operation does not declare, as the door found it (a pointer
# into the document or arguments it received), is refused at its pointer; never silently dropped.
# The detail is fixed text: a pointer holds the client's key names and stays out of the event.
violations contains {
	"stop_reason": "SCHEMA_INVALID",
	"rule": "IF1-VALID",
	"detail": "unknown_field",
	"pointer": pointer,
	"message": "is not a field of this operation",
} if {
	some pointer in input.unknown_fields
	is_string(pointer)
}

# IF1-VALID a document the door could not hand on (over its body limit, nested deeper than it
# parses) is refused at its root: the door says which limit and what it is, the policy answers.
violations contains {
	"stop_reason": "SCHEMA_INVALID",
	"rule": "IF1-VALID",
	"detail": concat("", ["document_", input.door_refusal.reason]),
	"pointer": "",
	"message": concat("", [_door_refusal_text[input.door_refusal.reason], format_int(input.door_refusal.limit, 10), _door_refusal_unit[input.door_refusal.reason]]),
}

_door_refusal_text := {"too_large": "the document is larger than ", "too_deep": "the document is nested deeper than "}

_door_refusal_unit := {"too_large": " bytes", "too_deep": " levels"}
