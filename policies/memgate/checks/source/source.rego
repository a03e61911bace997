# METADATA
# description: |
#   C19-SRC / INV-5 / SPEC D3a: DERIVED_UNVERIFIED is always NO_SOURCE_DERIVED_FACT;
#   CITED_SOURCE without a source_ref is NO_SOURCE_DERIVED_FACT; a source_ref that is prose
#   rather than structure ids is SCHEMA_INVALID (only within its C19-ITEM bound: a longer one is
#   BOUNDS_EXCEEDED, the bounds check's); a known source kind the category does not
#   allow is SCHEMA_INVALID (a USER_EXPLICIT one without consent is the consent check's).
package memgate.checks.source

import data.memgate.contract
import data.memgate.lib.operation

violations contains {"stop_reason": "NO_SOURCE_DERIVED_FACT", "rule": "C19-SRC", "detail": "derived_unverified"} if {
	operation.governed_write
	input.item.source_kind == "DERIVED_UNVERIFIED"
}

violations contains {"stop_reason": "NO_SOURCE_DERIVED_FACT", "rule": "C19-SRC", "detail": "cited_source_without_source_ref"} if {
	operation.governed_write
	input.item.source_kind == "CITED_SOURCE"
	not _has_ref
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-SRC", "detail": "source_ref_not_structure_ids"} if {
	operation.governed_write
	_has_ref
	count(input.item.source_ref) <= contract.bounds.source_ref
	not regex.match(contract.source_ref_pattern, input.item.source_ref)
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-CAT", "detail": "source_kind_not_allowed_for_category"} if {
	operation.governed_write
	input.item.source_kind in contract.source_kinds
	input.item.source_kind != "DERIVED_UNVERIFIED"
	category := contract.categories[input.item.category]
	not input.item.source_kind in category.source_kinds
}

_has_ref if {
	is_string(input.item.source_ref)
	trim_space(input.item.source_ref) != ""
}
