package memgate.checks.listing

import data.memgate.contract

# METADATA
# description: C19-OPS LIST pages hold 1 to list_limit_max items; a cursor must be one memgate issued
violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "C19-OPS", "detail": "limit_too_large"} if {
	input.contract == "governed"
	input.operation == "LIST"
	input.list.limit > contract.list_limit_max
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-OPS", "detail": "limit_must_be_positive"} if {
	input.contract == "governed"
	input.operation == "LIST"
	input.list.limit < 1
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-OPS", "detail": "cursor_invalid"} if {
	input.contract == "governed"
	input.operation == "LIST"
	input.list.cursor_valid == false
}
