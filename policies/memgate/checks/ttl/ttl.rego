package memgate.checks.ttl

import data.memgate.contract
import data.memgate.lib.operation

# METADATA
# description: C19-TTL a known TTL class that the category does not allow
violations contains {"stop_reason": "TTL_NOT_ALLOWED", "rule": "C19-TTL", "detail": "ttl_class_not_allowed_for_category"} if {
	operation.governed_write
	category := contract.categories[input.item.category]
	contract.ttl_classes[input.item.ttl_class]
	not input.item.ttl_class in category.ttl_classes
}
