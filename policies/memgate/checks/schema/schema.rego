# METADATA
# description: |
#   C19-ITEM / SPEC D3a: empty required fields, values outside the enums and control
#   characters other than tab and newline are SCHEMA_INVALID.
package memgate.checks.schema

import data.memgate.contract
import data.memgate.lib.operation

_required := ["category", "key", "value", "source_kind", "ttl_class"]

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": sprintf("%s_required", [field])} if {
	operation.governed_write
	some field in _required
	_blank(object.get(input.item, field, ""))
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

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": sprintf("%s_control_character", [field])} if {
	operation.governed_write
	some field in ["key", "value", "source_ref"]
	regex.match(`[\x00-\x08\x0B-\x1F\x7F]`, object.get(input.item, field, ""))
}

_blank(s) if trim_space(s) == ""

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": "subject_id_required"} if {
	_blank(object.get(input, "subject_id", ""))
}
