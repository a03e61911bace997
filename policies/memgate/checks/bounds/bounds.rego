# METADATA
# description: C19-ITEM / INV-6 field lengths, counted in characters; value bound per category
package memgate.checks.bounds

import data.memgate.contract
import data.memgate.lib.content
import data.memgate.lib.operation

# Any operation of any contract that names item fields (a memory id to read, update, delete
# or erase; the fields of a write).
violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "C19-ITEM", "detail": sprintf("%s_too_long", [field])} if {
	some field, limit in contract.bounds
	value := object.get(object.get(input, "item", {}), field, "")
	is_string(value)
	count(value) > limit
}

violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "C19-CAT", "detail": "value_too_long_for_category"} if {
	operation.governed_write
	is_string(input.item.value)
	limit := contract.categories[input.item.category].value_max
	count(input.item.value) > limit
	count(input.item.value) <= contract.bounds.value
}

# Any text of any write of any contract: a ceiling, so no text is unbounded (INV-6).
violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "C19-ITEM", "detail": sprintf("%s_too_long", [field])} if {
	some field, text in content.texts
	count(text) > contract.text_max
}

# A DELETE reason is kept in the event: it is bounded like a source_ref.
violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "C19-ITEM", "detail": "reason_too_long"} if {
	input.contract == "governed"
	input.operation == "DELETE"
	count(object.get(input, "reason", "")) > contract.bounds.source_ref
}
