# METADATA
# title: memgate decision
# description: |
#   The one entrypoint. Every check package under memgate.checks and every contract's
#   package under memgate.contracts contributes `violations` ({stop_reason, rule, detail});
#   the highest-priority stop reason of seed 000 §7 (extended by SPEC D3) answers. No
#   violation: the operation's success code.
package memgate.main

import data.memgate.checks.authz
import data.memgate.contract
import data.memgate.lib.operation

_checked contains v if {
	some name
	some v in data.memgate.checks[name].violations
}

# A contract's own rules live beside its data in policies/memgate/contracts/<name>/: only the
# rules of the contract asked are evaluated, so one contract's cost never grows with the others.
_checked contains v if {
	some v in data.memgate.contracts[input.contract].violations
}

# C19-FAIL an operation the policy does not know is an internal inconsistency, never a success.
_fail_closed contains {"stop_reason": "INTERNAL_INCONSISTENCY", "rule": "C19-FAIL", "detail": "unknown_operation"} if {
	not operation.spec
}

# SPEC D3, D5 no existence oracle: for a subject the token does not hold, only who may do what
# (authz) answers. Targets, erasure, ownership, content: nothing else is even evaluated, so the
# answer cannot depend on whether the target exists.
violations := authz.violations | _fail_closed if {
	authz.subject_refused
} else := _checked | _fail_closed

_rank(code) := i if {
	some i, ranked in contract.priority
	ranked == code
}

_stop_reason := code if {
	ranks := {_rank(v.stop_reason) | some v in violations}
	count(ranks) > 0
	code := contract.priority[min(ranks)]
}

_stop_reason := operation.spec.success if count(violations) == 0

# A violation whose code is not in the priority list, or an operation without a
# success code, leaves _stop_reason undefined: the decision then fails closed.

_winning contains v if {
	some v in violations
	v.stop_reason == _stop_reason
}

# concat, not sprintf: sprintf is the one builtin the wasm host runs in JavaScript (a round trip).
_explanations := sort([concat(": ", [v.rule, v.detail]) | some v in _winning])

# What the gateway does with the decision. A success code of a held operation (a
# proposal, whose success is MISSING_EXPLICIT_CONSENT) holds, any other success allows; a
# refusal holds only when every winning violation is marked `"hold": true` (SG-GATE
# held_as_proposal); everything else refuses.
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
	count(_winning) > 0
	every v in _winning {
		v.hold == true
	}
}

# The decision's `detail`: what the asked contract's own rules answered beyond the stop
# reason, when they did (data.memgate.contracts[<contract>].decision_detail: a confidence
# gate's band (SG-GATE), each selected id's answer (P54-E), an audit reason's code), and
# whether that verdict is the answer (`answered`: a winning violation is marked `"gate": true`),
# so the gateway never reads a stop reason to tell a discard from a refusal for another
# reason; null otherwise.
default _detail := null

_detail := object.union(data.memgate.contracts[input.contract].decision_detail, {"answered": _detail_answered})

default _detail_answered := false

_detail_answered if {
	some v in _winning
	v.gate == true
}

# Winning violations all marked `"partial": true` (a selection some of whose ids did not
# resolve, P54-E) answer their stop reason with what the operation may still give: allow.
_outcome := "allow" if {
	count(_winning) > 0
	every v in _winning {
		v.partial == true
	}
}

# IF1-VALID: where in the request each winning violation points, for violations that carry
# a JSON pointer and a message (requests that are JSON documents: seed 001); sorted, once each.
_errors := [{"pointer": p[0], "message": p[1]} |
	some p in sort({[v.pointer, v.message] |
		some v in _winning
		is_string(v.pointer)
		is_string(v.message)
	})
]

# The clauses of the winning violations, once each: what acts on a refusal (the re-audit's
# quarantine reason) reads these, never the wording of the explanations.
_rules := sort({v.rule | some v in _winning})

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
	"detail": _detail,
	"errors": _errors,
	"rules": _rules,
}
