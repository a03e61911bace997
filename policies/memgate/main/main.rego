# METADATA
# title: memgate decision
# description: |
#   The one entrypoint. Every check package under memgate.checks contributes
#   `violations` ({stop_reason, rule, detail}); the highest-priority stop reason of
#   seed 000 §7 (extended by SPEC D3) answers. No violation: the operation's success code.
package memgate.main

import data.memgate.contract
import data.memgate.lib.operation

violations contains v if {
	some name
	some v in data.memgate.checks[name].violations
}

# A contract's own rules live beside its data in policies/memgate/contracts/<name>/.
violations contains v if {
	some name
	some v in data.memgate.contracts[name].violations
}

# C19-FAIL an operation the policy does not know is an internal inconsistency, never a success.
violations contains {"stop_reason": "INTERNAL_INCONSISTENCY", "rule": "C19-FAIL", "detail": "unknown_operation"} if {
	not operation.spec
}

_rank(code) := i if contract.priority[i] == code

_winner := code if {
	ranks := {_rank(v.stop_reason) | some v in violations}
	count(ranks) > 0
	code := contract.priority[min(ranks)]
}

_stop_reason := _winner

_stop_reason := operation.spec.success if count(violations) == 0

# A violation whose code is not in the priority list, or an operation without a
# success code, leaves _stop_reason undefined: the decision then fails closed.
_explanations := sort([sprintf("%s: %s", [v.rule, v.detail]) |
	some v in violations
	v.stop_reason == _stop_reason
])

# What the gateway does with the decision. A success code of a held operation (a
# proposal, whose success is MISSING_EXPLICIT_CONSENT) or a winning violation marked
# `"hold": true` (SG-GATE held_as_proposal) holds; any other success allows; the rest refuse.
default _outcome := "refuse"

_outcome := "allow" if {
	count(violations) == 0
	startswith(_stop_reason, "SUCCESS_")
}

_outcome := "hold" if {
	count(violations) == 0
	not startswith(_stop_reason, "SUCCESS_")
}

_outcome := "hold" if {
	count(violations) > 0
	some v in violations
	v.stop_reason == _stop_reason
	object.get(v, "hold", false) == true
}

# SG-GATE: what a contract's confidence gate decided, when one applied
# (data.memgate.contracts[<contract>].decision_gate); null otherwise.
default _gate := null

_gate := data.memgate.contracts[input.contract].decision_gate

# Winning violations all marked `"partial": true` (a selection some of whose ids did not
# resolve, P54-E) answer their stop reason with what the operation may still give: allow.
_outcome := "allow" if {
	count(violations) > 0
	winning := [v | some v in violations; v.stop_reason == _stop_reason]
	count(winning) > 0
	every v in winning {
		object.get(v, "partial", false) == true
	}
}

# METADATA
# entrypoint: true
# description: C19-STOP exactly one stop reason for every operation
default decision := {
	"outcome": "refuse",
	"stop_reason": "INTERNAL_INCONSISTENCY",
	"explanations": ["C19-FAIL: no_decision"],
	"contract_version": "unknown",
}

decision := {
	"outcome": _outcome,
	"stop_reason": _stop_reason,
	"explanations": _explanations,
	"contract_version": contract.version,
	"gate": _gate,
}
