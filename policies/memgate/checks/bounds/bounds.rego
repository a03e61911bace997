# METADATA
# description: C19-ITEM / INV-6 field lengths, counted in characters; value bound per category
package memgate.checks.bounds

import data.memgate.contract
import data.memgate.lib.operation

violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "C19-ITEM", "detail": sprintf("%s_too_long", [field])} if {
	some field, limit in contract.bounds
	count(object.get(input.item, field, "")) > limit
}

violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "C19-CAT", "detail": "value_too_long_for_category"} if {
	operation.governed_write
	limit := contract.categories[input.item.category].value_max
	count(input.item.value) > limit
	count(input.item.value) <= contract.bounds.value
}
