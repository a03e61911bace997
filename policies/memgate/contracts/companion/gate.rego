# SG-GATE and SG-GROUND: how confident and how grounded a fact must be. The scores are
# facts computed by the gateway; the thresholds, the band and the confidence to store are
# decided here and travel with the decision as its `detail` (main.rego), so the gateway acts on
# the band and never compares a confidence with a threshold itself.
package memgate.contracts.companion

import data.memgate.checks.fields

_gate_cfg := data.memgate.contracts.companion.gate

_grounding_min := data.memgate.contracts.companion.grounding_min

# A malformed fact answers SCHEMA_INVALID or BOUNDS_EXCEEDED, not a gate outcome.
_malformed if {
	some v in _rules
	v.stop_reason in {"SCHEMA_INVALID", "BOUNDS_EXCEEDED"}
}

_malformed if {
	some v in fields.violations
	v.stop_reason in {"SCHEMA_INVALID", "BOUNDS_EXCEEDED"}
}

_add if {
	_op("ADD_FACT")
	is_number(input.fact.confidence)
	not _malformed
}

# Offline (no model judge configured): the score alone.
_grounded if {
	object.get(input.grounding, "judge", null) == null
	input.grounding.score >= _grounding_min
}

# SG-GROUND with a model judge (MEMGATE_JUDGE_URL): its verdict is one more fact. A candidate
# it finds grounded needs a lower offline score (judge_grounded_min: paraphrases the words do
# not show); one it refuses, or a judge that did not answer (timeout, error: "unavailable"),
# is never grounded: the judge fails closed.
_grounded if {
	input.grounding.judge == "grounded"
	input.grounding.score >= data.memgate.contracts.companion.judge_grounded_min
}

# The gated confidence: the fact's own, or a pending proposal of the same fact reinforced by
# this observation (the strongest confidence seen, plus a step per earlier observation).
default effective := 0

effective := c if {
	_add
	not input.proposal.found
	c := input.fact.confidence
}

effective := c if {
	_add
	input.proposal.found
	raw := max([input.fact.confidence, input.proposal.confidence]) + (_gate_cfg.reinforcement_step * input.proposal.observations)
	c := min([1, round(raw * 10000) / 10000])
}

# Where the gated confidence falls, before grounding is considered.
_level := "apply" if {
	_add
	effective >= _gate_cfg.apply_min
}

_level := "proposal" if {
	_add
	effective >= _gate_cfg.proposal_min
	effective < _gate_cfg.apply_min
}

_level := "narrative" if {
	_add
	effective >= _gate_cfg.narrative_min
	effective < _gate_cfg.proposal_min
	input.fact.type == "SHARED_NARRATIVE"
}

_level := "narrative_only" if {
	_add
	effective >= _gate_cfg.narrative_min
	effective < _gate_cfg.proposal_min
	input.fact.type != "SHARED_NARRATIVE"
}

_level := "below_gate" if {
	_add
	effective < _gate_cfg.narrative_min
}

_discarded := {"narrative_only", "below_gate"}

_band := "ungrounded" if {
	_add
	not _grounded
}

_band := _level if {
	_add
	_grounded
	not _level in _discarded
}

_band := "discard" if {
	_add
	_grounded
	_level in _discarded
}

default _gate_reason := null

_gate_reason := "ungrounded" if _band == "ungrounded"

_gate_reason := _level if _band == "discard"

# The gate's own violations are marked `"gate": true`: when one of them answers, the decision's
# detail says so (`answered`, main.rego) and the gateway records a discard from the band alone.

# METADATA
# description: |
#   SG-GATE what the gate decided for an ADD_FACT: the band (apply, proposal, narrative,
#   discard, ungrounded), the confidence to store, and why a discard was discarded.
decision_detail := {"band": _band, "effective_confidence": effective, "reason": _gate_reason} if _add

violations contains {"stop_reason": "NO_SOURCE_DERIVED_FACT", "rule": "SG-GROUND", "detail": "ungrounded", "gate": true} if {
	_add
	not _grounded
}

violations contains {"stop_reason": "MISSING_EXPLICIT_CONSENT", "rule": "SG-GATE", "detail": "held_as_proposal", "hold": true, "gate": true} if {
	_band == "proposal"
}

violations contains {"stop_reason": "NO_SOURCE_DERIVED_FACT", "rule": "SG-GATE", "detail": _level, "gate": true} if {
	_level in _discarded
}

# MP-CONSOLIDATE: every input needs source_refs, and the merged text is grounded in its inputs.
violations contains {"stop_reason": "NO_SOURCE_DERIVED_FACT", "rule": "MP-CONSOLIDATE", "detail": "missing_source_refs"} if {
	_op("CONSOLIDATE")
	some i in input.consolidate.inputs
	i.found
	i.source_refs == 0
}

violations contains {"stop_reason": "NOT_FOUND", "rule": "MP-CONSOLIDATE", "detail": "no_such_fact"} if {
	_op("CONSOLIDATE")
	some i in input.consolidate.inputs
	not i.found
}

violations contains {"stop_reason": "NO_SOURCE_DERIVED_FACT", "rule": "SG-GROUND", "detail": "ungrounded"} if {
	_op("CONSOLIDATE")
	not _malformed
	not _grounded
}
