# METADATA
# description: |
#   MP-BREAK a tenant whose event chain failed verification is refused every operation
#   but reads of memory and of the log, and an admin's acknowledgement, until that
#   acknowledgement (input.integrity comes from the gateway's integrity guard).
package memgate.checks.integrity

import data.memgate.contracts.audit

violations contains {"stop_reason": "INTERNAL_INCONSISTENCY", "rule": "MP-BREAK", "detail": "event_chain_unverified"} if {
	input.integrity.chain_broken
	not input.operation in object.get(audit.allowed_while_broken, input.contract, [])
}
