# METADATA
# description: |
#   The operation being decided, as its contract declares it in
#   policies/memgate/contracts/<contract>/data.json ("operations"): its success code, the
#   roles that may call it, whether it writes content and whether it targets one existing item.
package memgate.lib.operation

spec := data.memgate.contracts[input.contract].operations[input.operation]

default is_write := false

is_write if spec.write

default is_targeted := false

is_targeted if spec.targeted

# Phase 19 (seed 000) item rules apply to the governed contract's writes.
governed_write if {
	input.contract == "governed"
	is_write
}
