# METADATA
# description: |
#   SG-GATE and SG-GROUND: how confident and how grounded a fact must be. The scores are
#   facts computed by the gateway; the thresholds and the decision are here.
package memgate.checks.companion_gate

import data.memgate.checks.companion
import data.memgate.companion as cfg

# A malformed fact answers SCHEMA_INVALID or BOUNDS_EXCEEDED, not a gate outcome.
_malformed if {
	some v in companion.violations
	v.stop_reason in {"SCHEMA_INVALID", "BOUNDS_EXCEEDED"}
}

_add if {
	input.contract == "companion"
	input.operation == "ADD_FACT"
	is_number(input.fact.confidence)
	not _malformed
}

_grounded if input.grounding.score >= cfg.grounding_min

# A pending proposal for the same fact, reinforced by this one.
default effective := 0

effective := c if {
	_add
	not input.proposal.found
	c := input.fact.confidence
}

effective := c if {
	_add
	input.proposal.found
	c := max([input.fact.confidence, input.proposal.confidence]) + (cfg.gate.reinforcement_step * input.proposal.observations)
}

violations contains {"stop_reason": "NO_SOURCE_DERIVED_FACT", "rule": "SG-GROUND", "detail": "ungrounded"} if {
	_add
	not _grounded
}

violations contains {"stop_reason": "MISSING_EXPLICIT_CONSENT", "rule": "SG-GATE", "detail": "held_as_proposal", "hold": true} if {
	_add
	_grounded
	effective >= cfg.gate.proposal_min
	effective < cfg.gate.apply_min
}

violations contains {"stop_reason": "NO_SOURCE_DERIVED_FACT", "rule": "SG-GATE", "detail": "narrative_only"} if {
	_add
	effective >= cfg.gate.narrative_min
	effective < cfg.gate.proposal_min
	input.fact.type != "SHARED_NARRATIVE"
}

violations contains {"stop_reason": "NO_SOURCE_DERIVED_FACT", "rule": "SG-GATE", "detail": "below_gate"} if {
	_add
	effective < cfg.gate.narrative_min
}

# MP-CONSOLIDATE: every input needs source_refs, and the merged text is grounded in its inputs.
violations contains {"stop_reason": "NO_SOURCE_DERIVED_FACT", "rule": "MP-CONSOLIDATE", "detail": "missing_source_refs"} if {
	input.contract == "companion"
	input.operation == "CONSOLIDATE"
	some i in input.consolidate.inputs
	i.found
	i.source_refs == 0
}

violations contains {"stop_reason": "NOT_FOUND", "rule": "MP-CONSOLIDATE", "detail": "no_such_fact"} if {
	input.contract == "companion"
	input.operation == "CONSOLIDATE"
	some i in input.consolidate.inputs
	not i.found
}

violations contains {"stop_reason": "NO_SOURCE_DERIVED_FACT", "rule": "SG-GROUND", "detail": "ungrounded"} if {
	input.contract == "companion"
	input.operation == "CONSOLIDATE"
	not _malformed
	not _grounded
}
