# METADATA
# description: |
#   The operation being decided, as its contract declares it in
#   policies/memgate/operations/<contract>/data.json: its success code, the roles that
#   may call it, whether it writes content and whether it targets one existing item.
package memgate.lib.operation

# A contract's folder policies/memgate/contracts/<name>/ declares its operations in its
# data.json ("operations"); contracts not yet moved there keep operations/<name>/data.json.
spec := data.memgate.contracts[input.contract].operations[input.operation]

spec := data.memgate.operations[input.contract][input.operation] if not data.memgate.contracts[input.contract].operations

default is_write := false

is_write if spec.write

default is_targeted := false

is_targeted if spec.targeted

# Phase 19 (seed 000) item rules apply to the governed contract's writes.
governed_write if {
	input.contract == "governed"
	is_write
}
