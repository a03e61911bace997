# METADATA
# description: |
#   The audit contract's own rules (issue 5, issue 11): a reason is mandatory for erasure
#   and for acknowledging a conformance break (MP-LOG, MP-FORGET, SPEC D1); ranges and
#   cursors over the log are non-negative and bounded; only an existing, not yet erased
#   object can be erased (anything else is NOT_FOUND, so existence never leaks).
#   Hygiene and bounds of every declared field (the reason's length and control characters
#   included) are the generic fields check's, from "fields" in data.json; what a reason says
#   meets every content check (forbidden classes, injection) because the operations are
#   declared `"texts": true`.
package memgate.contracts.audit

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "MP-LOG", "detail": "reason_required"} if {
	input.contract == "audit"
	input.operation in data.memgate.contracts.audit.reason_required
	_blank(_reason)
}

violations contains {"stop_reason": "NOT_FOUND", "rule": "C19-STOP", "detail": "no_such_memory"} if {
	input.contract == "audit"
	input.operation == "ERASE_MEMORY"
	not _erasable
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": "memory_id_required"} if {
	input.contract == "audit"
	input.operation == "ERASE_MEMORY"
	_blank(object.get(input, ["item", "memory_id"], ""))
}

violations contains {"stop_reason": "NOT_FOUND", "rule": "MP-BREAK", "detail": "no_break_to_acknowledge"} if {
	input.contract == "audit"
	input.operation == "ACK_CONFORMANCE"
	not input.integrity.chain_broken
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "MP-LOG", "detail": "seq_must_not_be_negative"} if {
	input.contract == "audit"
	some value in _seqs
	not _non_negative_int(value)
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "MP-LOG", "detail": "range_reversed"} if {
	input.contract == "audit"
	input.operation == "VERIFY_CHAIN"
	is_number(input.range.from_seq)
	is_number(input.range.to_seq)
	input.range.to_seq < input.range.from_seq
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "MP-LOG", "detail": "limit_must_be_positive"} if {
	input.contract == "audit"
	input.operation == "LIST_CHECKPOINTS"
	input.list.limit < 1
}

violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "MP-LOG", "detail": "limit_too_large"} if {
	input.contract == "audit"
	input.operation == "LIST_CHECKPOINTS"
	input.list.limit > data.memgate.contracts.audit.list_limit_max
}

# METADATA
# description: |
#   Issue 22 §4: the code an operation's reason is recorded by: the reason itself when it is
#   one of the operation's reason_codes, else `other` (its text is then kept outside the chain).
#   It travels with the decision as `detail` (main.rego): the gateway records the code decided here.
decision_detail := {"reason_code": _reason_code} if {
	input.contract == "audit"
	data.memgate.contracts.audit.reason_codes[input.operation]
}

default _reason_code := "other"

_reason_code := code if {
	code := trim_space(_reason)
	code in data.memgate.contracts.audit.reason_codes[input.operation]
}

# The reason as declared: a text field, so the kernel hands it over in input.texts.
default _reason := ""

_reason := r if {
	r := input.texts.reason
	is_string(r)
}

_erasable if {
	input.erasure.found
	not input.erasure.erased
}

_seqs contains v if {
	some v in [object.get(input, ["range", "from_seq"], null), object.get(input, ["range", "to_seq"], null)]
	v != null
}

_seqs contains object.get(input, ["stream", "after_seq"], 0)

_seqs contains object.get(input, ["list", "after_seq"], 0)

_non_negative_int(v) if {
	is_number(v)
	v >= 0
	v == floor(v)
}

_blank(s) if trim_space(s) == ""
