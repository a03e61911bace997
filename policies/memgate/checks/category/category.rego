package memgate.checks.category

import data.memgate.contract
import data.memgate.lib.operation

# METADATA
# description: C19-CAT / INV-1 a category not on the allowlist is forbidden
violations contains {"stop_reason": "FORBIDDEN_CATEGORY", "rule": "C19-CAT", "detail": "category_not_allowed"} if {
	operation.governed_write
	not contract.categories[input.item.category]
}
