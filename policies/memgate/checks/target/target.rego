package memgate.checks.target

import data.memgate.contract

# METADATA
# description: |
#   SPEC D3 an item that does not exist, belongs to another tenant or subject, is
#   deleted or has expired answers NOT_FOUND; the caller cannot tell which.
violations contains {"stop_reason": "NOT_FOUND", "rule": "C19-STOP", "detail": "no_such_memory"} if {
	input.operation in contract.targeted
	not input.target.found
}
