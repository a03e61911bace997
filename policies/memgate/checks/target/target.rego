package memgate.checks.target

import data.memgate.lib.operation

# METADATA
# description: |
#   SPEC D3 an item that does not exist, belongs to another tenant or subject, is
#   deleted or has expired answers NOT_FOUND; the caller cannot tell which.
violations contains {"stop_reason": "NOT_FOUND", "rule": "C19-STOP", "detail": "no_such_memory"} if {
	operation.is_targeted
	not _live
}

# METADATA
# description: |
#   SPEC D2 optimistic concurrency: an UPDATE or DELETE that names the version it read
#   answers NOT_FOUND when that version is no longer the live one (it was superseded).
violations contains {"stop_reason": "NOT_FOUND", "rule": "C19-OPS", "detail": "version_superseded"} if {
	operation.is_targeted
	_live
	is_number(input.item.expected_version)
	input.item.expected_version != input.target.version
}

_live if {
	input.target.found
	input.target.status == "active"
	not _expired
}

# C19-TTL expired items are neither read nor listed, judged by the gateway's injectable clock
# (SPEC D6). Times arrive as epoch milliseconds: the wasm host has no time.parse_* builtins.
_expired if input.target.expires_at_ms <= input.now_ms
