# METADATA
# description: |
#   The audit contract's own rules (issue 5): a reason is mandatory for erasure and for
#   acknowledging a conformance break (MP-LOG, MP-FORGET, SPEC D1); ranges and cursors
#   over the log are non-negative and bounded; only an existing, not yet erased memory
#   can be erased (anything else is NOT_FOUND, so existence never leaks).
package memgate.checks.audit

import data.memgate.audit

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "MP-LOG", "detail": "reason_required"} if {
	input.contract == "audit"
	input.operation in audit.reason_required
	_blank(_reason)
}

violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "MP-LOG", "detail": "reason_too_long"} if {
	input.contract == "audit"
	input.operation in audit.reason_required
	count(_reason) > audit.reason_max
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "MP-LOG", "detail": "reason_control_character"} if {
	input.contract == "audit"
	input.operation in audit.reason_required
	regex.match(`[\x00-\x08\x0B-\x1F\x7F]`, _reason)
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
	input.list.limit > audit.list_limit_max
}

_reason := r if {
	r := input.erasure.reason
	is_string(r)
} else := r if {
	r := input.reason
	is_string(r)
} else := ""

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
