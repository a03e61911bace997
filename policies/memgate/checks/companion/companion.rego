# METADATA
# description: |
#   Companion memory (seed 002): write authority, confidence gate, grounding, typed and
#   append-only facts, privacy settings and the warmth/power wall of envelopes. Thresholds,
#   windows and enums are data (policies/memgate/companion/data.json).
package memgate.checks.companion

import data.memgate.companion as cfg

_companion if input.contract == "companion"

_op(name) if {
	_companion
	input.operation == name
}

_fact_write if _op("ADD_FACT")

_fact_write if _op("CONSOLIDATE")

# --- SG-AUTHORITY ---------------------------------------------------------------

_role(r) if r in input.principal.roles

_has_job_context if {
	_role("job")
	is_string(input.principal.job.id)
	trim_space(input.principal.job.id) != ""
}

_authority if _role("adapter")

_authority if _role("admin")

_authority if _has_job_context

_untrusted_origin if object.get(input, "origin", "adapter") in cfg.untrusted_origins

violations contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-AUTHORITY", "detail": "no_write_authority"} if {
	_fact_write
	not _authority
}

violations contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-AUTHORITY", "detail": "no_write_authority"} if {
	_fact_write
	_untrusted_origin
}

# MP-CONSOLIDATE consolidation is for adapters and admins only.
violations contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-AUTHORITY", "detail": "no_write_authority"} if {
	_op("CONSOLIDATE")
	not _role("adapter")
	not _role("admin")
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-AUTHORITY", "detail": "origin_unknown"} if {
	_fact_write
	not object.get(input, "origin", "adapter") in cfg.origins
}

# --- SG-TYPED, SG-APPEND: the fact itself ----------------------------------------

_blank(s) if trim_space(s) == ""

_blank(s) if not is_string(s)

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-TYPED", "detail": "type_unknown"} if {
	_fact_write
	not input.fact.type in cfg.fact_types
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-TYPED", "detail": "source_unknown"} if {
	_op("ADD_FACT")
	not input.fact.source in cfg.sources
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-TYPED", "detail": sprintf("%s_required", [f])} if {
	_fact_write
	some f in ["text", "summary"]
	_blank(object.get(input.fact, f, ""))
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-TYPED", "detail": sprintf("%s_control_character", [f])} if {
	_fact_write
	some f in ["text", "summary"]
	regex.match(`[\x00-\x08\x0B-\x1F\x7F]`, object.get(input.fact, f, ""))
}

violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "SG-TYPED", "detail": sprintf("%s_too_long", [f])} if {
	_fact_write
	some f in ["text", "summary"]
	count(object.get(input.fact, f, "")) > cfg.bounds[f]
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-GATE", "detail": "confidence_invalid"} if {
	_op("ADD_FACT")
	not _confidence_valid
}

_confidence_valid if {
	is_number(input.fact.confidence)
	input.fact.confidence >= 0
	input.fact.confidence <= 1
}

# SG-APPEND content, type and subject never change: a superseding fact must repeat them.
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-APPEND", "detail": "content_immutable"} if {
	_op("ADD_FACT")
	input.supersedes.requested
	input.supersedes.found
	not input.supersedes.same_content
}

violations contains {"stop_reason": "NOT_FOUND", "rule": "SG-APPEND", "detail": "no_such_fact"} if {
	_op("ADD_FACT")
	input.supersedes.requested
	not input.supersedes.found
}

# SG-TYPED SG-WARMTH: a consolidation keeps its inputs' one type; warmth never becomes a fact.
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "MP-CONSOLIDATE", "detail": "mixed_types"} if {
	_op("CONSOLIDATE")
	count(input.consolidate.types) > 0
	input.consolidate.types != [input.fact.type]
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "MP-CONSOLIDATE", "detail": "needs_two_facts"} if {
	_op("CONSOLIDATE")
	count(input.consolidate.inputs) < 2
}

# --- SG-PRIVACY -------------------------------------------------------------------

violations contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-PRIVACY", "detail": "memory_disabled"} if {
	_fact_write
	input.privacy.memory_enabled == false
}

violations contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-PRIVACY", "detail": "patterns_disabled"} if {
	_op("ADD_FACT")
	input.privacy.learn_patterns == false
	input.fact.type == "USER_PATTERN"
}

# share_with names the agent types that may read envelopes; empty means every type.
violations contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-PRIVACY", "detail": "not_shared_with_agent_type"} if {
	_op("ENVELOPE")
	count(object.get(input.privacy, "share_with", [])) > 0
	_role("agent")
	not input.principal.agent_type in input.privacy.share_with
}

# Only the subject itself (a user acting for itself) or an admin changes privacy settings
# or asks for erasure (SPEC D1).
violations contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-PRIVACY", "detail": "not_subject_or_admin"} if {
	some op in ["SET_PRIVACY", "ERASE"]
	_op(op)
	not _role("admin")
	not input.subject_id in input.principal.subjects
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-PRIVACY", "detail": "delete_after_days_invalid"} if {
	_op("SET_PRIVACY")
	d := input.settings.delete_after_days
	d != null
	not _valid_days(d)
}

_valid_days(d) if {
	is_number(d)
	d == floor(d)
	d >= 1
	d <= cfg.delete_after_days_max
}

violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "SG-PRIVACY", "detail": "share_with_too_long"} if {
	_op("SET_PRIVACY")
	count(object.get(input.settings, "share_with", [])) > cfg.bounds.share_with
}

# The person confirms a proposal: the subject itself, or an admin for them.
violations contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-GATE", "detail": "only_the_subject_confirms"} if {
	_op("CONFIRM_PROPOSAL")
	not _role("admin")
	not _self
}

_self if {
	_role("user")
	input.subject_id in input.principal.subjects
}

# --- SG-WARMTH ---------------------------------------------------------------------

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-ENVELOPE", "detail": "purpose_unknown"} if {
	_op("ENVELOPE")
	not input.envelope.purpose in cfg.purposes
}

violations contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-WARMTH", "detail": "warmth_in_power"} if {
	_op("ENVELOPE")
	input.envelope.purpose in cfg.power_purposes
	input.envelope.include_narrative == true
}
