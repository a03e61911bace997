# METADATA
# description: |
#   C19-ITEM / SPEC D3a: empty required fields, values outside the enums and control
#   characters other than tab and newline are SCHEMA_INVALID.
package memgate.checks.schema

import data.memgate.contract
import data.memgate.lib.content
import data.memgate.lib.operation

_required := ["category", "key", "value", "source_kind", "ttl_class"]

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": sprintf("%s_required", [field])} if {
	operation.governed_write
	some field in _required
	_blank(object.get(input.item, field, ""))
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": sprintf("%s_not_a_string", [field])} if {
	operation.governed_write
	some field in array.concat(_required, ["source_ref"])
	value := object.get(input.item, field, "")
	value != null
	not is_string(value)
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": "source_kind_unknown"} if {
	operation.governed_write
	not _blank(object.get(input.item, "source_kind", ""))
	not input.item.source_kind in contract.source_kinds
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": "ttl_class_unknown"} if {
	operation.governed_write
	not _blank(object.get(input.item, "ttl_class", ""))
	not contract.ttl_classes[input.item.ttl_class]
}

# D3a: C0 controls other than tab and newline, DEL and C1 controls, in any text of any
# write of any contract. On the kernel every declared field reports them (checks/fields).
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": sprintf("%s_control_character", [field])} if {
	not content.kernel
	some field, text in content.texts
	regex.match(`[\x00-\x08\x0B-\x1F\x7F\x{80}-\x{9F}]`, text)
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": sprintf("%s_control_character", [field])} if {
	not content.kernel
	operation.governed_write
	some field in ["key", "value", "source_ref", "category"]
	value := object.get(input.item, field, "")
	is_string(value)
	regex.match(`[\x00-\x08\x0B-\x1F\x7F\x{80}-\x{9F}]`, value)
}

_blank(null)

_blank(s) if {
	is_string(s)
	trim_space(s) == ""
}

# A tenant-wide operation (settings without a subject) names no subject on purpose.
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": "subject_id_required"} if {
	not operation.spec.tenant_scope_allowed
	_blank(object.get(input, "subject_id", ""))
}
