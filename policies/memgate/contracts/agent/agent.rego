# METADATA
# description: |
#   IF1-VALID the agent interface of seed 001. TypeScript reports what it found in the
#   document (schema issues from ajv against the exact schemas, by $id; blank texts; links
#   that name no memory the caller can see); the kernel reports facts about every declared
#   field (src/kernel/fields.ts). This package decides. Each violation names the JSON
#   pointer it is about ("pointer", "message": main.rego answers them as `errors`) and
#   explains itself as "#<json pointer>: <what to do>", so a developer sees every
#   offending place. Bounds are the contract's "fields" in data.json, the generic check's.
package memgate.contracts.agent

_agent if input.contract == "agent"

# IF1-VALID first layer: every schema issue is one violation at its pointer.
violations contains _schema_invalid(issue.pointer, issue.message) if {
	_agent
	some issue in input.agent.schema_issues
}

# IF1-VALID semantic layer: text that must say something says something.
violations contains _schema_invalid(pointer, "must contain non-whitespace text") if {
	_agent
	some pointer in input.agent.blank
}

# IF1-VALID links, change targets and context problems name memories the caller can see.
violations contains _schema_invalid(ref.pointer, "names no memory in this repository or the tenant's global space") if {
	_agent
	some ref in input.agent.refs
	not ref.found
}

violations contains _schema_invalid(ref.pointer, msg) if {
	_agent
	some ref in input.agent.refs
	ref.found
	count(ref.expected_kinds) > 0
	not ref.kind in ref.expected_kinds
	msg := concat("", ["must name a memory of kind ", concat(" or ", ref.expected_kinds), ", but names one of kind \"", ref.kind, "\""])
}

# IF1-CHANGE only a change invalidates: change_targets on any other kind is a mistake.
violations contains _schema_invalid("/memory/links/change_targets", msg) if {
	_agent
	input.operation == "WRITE"
	input.agent.change_target_count > 0
	input.agent.kind != "change"
	msg := "only a memory of kind \"change\" may name change_targets; write the change as its own memory"
}

# The declared fields, at their pointers (the generic fields check answers them too, by field name).
# SPEC D3a, issue 11: a lone or reversed surrogate would be stored as U+FFFD.
violations contains _schema_invalid(_pointer(f.path), "must be well-formed UTF-16 (no lone or reversed surrogates)") if {
	_document_fields
	some f in input.fields
	f.ill_formed
}

violations contains _schema_invalid(_pointer(f.path), "must not contain control characters other than tab and newline") if {
	_document_fields
	some f in input.fields
	f.control
}

violations contains _schema_invalid(_pointer(f.path), "must be an id: letters, digits and _ . : / @ + - only") if {
	_document_fields
	some f in input.fields
	f.pattern_mismatch
}

# The schema reports a value of the wrong type at its pointer ("types_by_schema" in data.json);
# should it not, the kernel's fact still refuses it.
violations contains _schema_invalid(_pointer(f.path), "has the wrong type") if {
	_document_fields
	some f in input.fields
	f.wrong_type
	not _schema_pointers[_pointer(f.path)]
}

violations contains _bounds_exceeded(_pointer(f.path), msg) if {
	_document_fields
	some f in input.fields
	limit := data.memgate.contracts.agent.fields[f.field]
	f.length > limit
	msg := _too_long(f.kind, f.length, limit)
}

# DISPATCH carries a document that is none of the three: its own issue says why.
_document_fields if {
	_agent
	input.operation != "DISPATCH"
}

_schema_pointers contains issue.pointer if some issue in input.agent.schema_issues

_too_long("list", size, limit) := concat("", ["lists ", format_int(size, 10), " items; at most ", format_int(limit, 10), " allowed"])

_too_long(kind, size, limit) := concat("", ["is ", format_int(size, 10), " long; at most ", format_int(limit, 10), " allowed"]) if kind != "list"

# A declared field's path ("memory.links.related_memory_ids[1]") as an RFC 6901 pointer.
# Declared names never contain "/", "~", "." or brackets, so no escaping is needed.
_pointer(path) := concat("", ["/", replace(replace(replace(path, "]", ""), "[", "/"), ".", "/")])

_schema_invalid(pointer, message) := _at("SCHEMA_INVALID", pointer, message)

_bounds_exceeded(pointer, message) := _at("BOUNDS_EXCEEDED", pointer, message)

# concat, not sprintf: sprintf is the one builtin the wasm host runs in JavaScript.
_at(stop_reason, pointer, message) := {
	"stop_reason": stop_reason,
	"rule": "IF1-VALID",
	"detail": concat("", ["#", pointer, ": ", message]),
	"pointer": pointer,
	"message": message,
}
