# METADATA
# description: |
#   The Phase 19 contract's own rules (seed 000): LIST paging and setMemorySettings.
#   The item rules of STORE/UPDATE/DELETE/READ (category, bounds, TTL, source, consent,
#   forbidden classes, injection, entitlements, target) are the shared checks under
#   policies/memgate/checks/, which read input.item, input.texts and input.target.
package memgate.contracts.governed

import data.memgate.contract
import data.memgate.entitlements

# C19-OPS LIST pages hold 1 to list_limit_max items; a cursor must be one memgate issued.
violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "C19-OPS", "detail": "limit_too_large"} if {
	_list_op
	input.list.limit > contract.list_limit_max
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-OPS", "detail": "limit_must_be_positive"} if {
	_list_op
	input.list.limit < 1
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "C19-OPS", "detail": "cursor_invalid"} if {
	_list_op
	input.list.cursor_valid == false
}

_list_op if {
	input.contract == "governed"
	input.operation == "LIST"
}

# C19-POLICY / C19-CAP: setMemorySettings (admin only, by operations data). Each given
# value must have the right type (SCHEMA_INVALID) and lie within the limits of
# data.memgate.entitlements (BOUNDS_EXCEEDED); at least one value must be given.
_settings_op if {
	input.contract == "governed"
	input.operation == "SET_SETTINGS"
}

_change := object.get(input, "settings_change", {})

_given contains k if {
	some k, v in _change
	k in {"enabled", "max_items_per_subject", "max_writes_per_window"}
	v != null
}

violations contains _schema("no_setting_given") if {
	_settings_op
	count(_given) == 0
}

violations contains _schema("enabled_not_boolean") if {
	_settings_op
	"enabled" in _given
	not is_boolean(_change.enabled)
}

violations contains _schema(sprintf("%s_not_a_whole_number", [name])) if {
	_settings_op
	some name in ["max_items_per_subject", "max_writes_per_window"]
	name in _given
	not _whole(_change[name])
}

violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "C19-CAP", "detail": sprintf("%s_out_of_range", [name])} if {
	_settings_op
	some name in ["max_items_per_subject", "max_writes_per_window"]
	name in _given
	_whole(_change[name])
	_out_of_range(_change[name], entitlements.limits[name])
}

_whole(n) if {
	is_number(n)
	n == floor(n)
}

_out_of_range(n, _) if n < 0

_out_of_range(n, limit) if n > limit

_schema(detail) := {"stop_reason": "SCHEMA_INVALID", "rule": "C19-ITEM", "detail": detail}
