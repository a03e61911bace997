# METADATA
# description: |
#   Companion memory (seed 002): write authority, typed and append-only facts, privacy
#   settings and the warmth/power wall of envelopes. Thresholds, windows, enums and field
#   bounds are data (data.json beside this file); field hygiene and bounds are checked by
#   checks/fields, content by the detector checks, the confidence gate by gate.rego.
package memgate.contracts.companion

_cfg_origins := data.memgate.contracts.companion.origins

_cfg_untrusted := data.memgate.contracts.companion.untrusted_origins

_cfg_types := data.memgate.contracts.companion.fact_types

_cfg_sources := data.memgate.contracts.companion.sources

_cfg_purposes := data.memgate.contracts.companion.purposes

_cfg_power := data.memgate.contracts.companion.power_purposes

_cfg_days_max := data.memgate.contracts.companion.delete_after_days_max

_companion if input.contract == "companion"

_op(name) if {
	_companion
	input.operation == name
}

_fact_write if _op("ADD_FACT")

_fact_write if _op("CONSOLIDATE")

# The contract's own rules and the gate's (gate.rego) are one set.
violations contains v if some v in _rules

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

_origin := object.get(input, "origin", "adapter")

_rules contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-AUTHORITY", "detail": "no_write_authority"} if {
	_fact_write
	not _authority
}

_rules contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-AUTHORITY", "detail": "no_write_authority"} if {
	_fact_write
	_origin in _cfg_untrusted
}

# MP-CONSOLIDATE consolidation is for adapters and admins only.
_rules contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-AUTHORITY", "detail": "no_write_authority"} if {
	_op("CONSOLIDATE")
	not _role("adapter")
	not _role("admin")
}

_rules contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-AUTHORITY", "detail": "origin_unknown"} if {
	_fact_write
	not _origin in _cfg_origins
}

# --- SG-TYPED, SG-APPEND: the fact itself ----------------------------------------

_blank(s) if not is_string(s)

_blank(s) if trim_space(s) == ""

_text(name) := object.get(object.get(input, "texts", {}), name, "")

_rules contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-TYPED", "detail": "type_unknown"} if {
	_fact_write
	not input.fact.type in _cfg_types
}

_rules contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-TYPED", "detail": "source_unknown"} if {
	_op("ADD_FACT")
	not input.fact.source in _cfg_sources
}

_rules contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-TYPED", "detail": "text_required"} if {
	_fact_write
	_blank(_text("text"))
}

_rules contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-TYPED", "detail": "summary_required"} if {
	_op("ADD_FACT")
	_blank(_text("summary"))
}

_rules contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-GATE", "detail": "confidence_invalid"} if {
	_op("ADD_FACT")
	not _confidence_valid
}

_confidence_valid if {
	is_number(input.fact.confidence)
	input.fact.confidence >= 0
	input.fact.confidence <= 1
}

# MP-TEMPORAL: valid_to, when given, is a real ISO 8601 time (the gateway reports whether it parsed).
_rules contains {"stop_reason": "SCHEMA_INVALID", "rule": "MP-TEMPORAL", "detail": "valid_to_not_a_date"} if {
	_op("ADD_FACT")
	input.valid_to.given
	not input.valid_to.valid
}

# SG-APPEND content, type and subject never change: a superseding fact must repeat them.
_rules contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-APPEND", "detail": "content_immutable"} if {
	_op("ADD_FACT")
	input.supersedes.requested
	input.supersedes.found
	not input.supersedes.same_content
}

_rules contains {"stop_reason": "NOT_FOUND", "rule": "SG-APPEND", "detail": "no_such_fact"} if {
	_op("ADD_FACT")
	input.supersedes.requested
	not input.supersedes.found
}

# SG-TYPED SG-WARMTH: a consolidation keeps its inputs' one type; warmth never becomes a fact.
_rules contains {"stop_reason": "SCHEMA_INVALID", "rule": "MP-CONSOLIDATE", "detail": "mixed_types"} if {
	_op("CONSOLIDATE")
	count(input.consolidate.types) > 0
	input.consolidate.types != [input.fact.type]
}

_rules contains {"stop_reason": "SCHEMA_INVALID", "rule": "MP-CONSOLIDATE", "detail": "needs_two_facts"} if {
	_op("CONSOLIDATE")
	count(input.consolidate.inputs) < 2
}

# --- SG-PRIVACY -------------------------------------------------------------------

_rules contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-PRIVACY", "detail": "memory_disabled"} if {
	_fact_write
	input.privacy.memory_enabled == false
}

_rules contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-PRIVACY", "detail": "patterns_disabled"} if {
	_op("ADD_FACT")
	input.privacy.learn_patterns == false
	input.fact.type == "USER_PATTERN"
}

# share_with names the agent types that may read envelopes; empty means every type.
_rules contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-PRIVACY", "detail": "not_shared_with_agent_type"} if {
	_op("ENVELOPE")
	count(object.get(input.privacy, "share_with", [])) > 0
	_role("agent")
	not input.principal.agent_type in input.privacy.share_with
}

# Only the subject itself (a user acting for itself) or an admin changes privacy settings
# or asks for erasure (SPEC D1).
_rules contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-PRIVACY", "detail": "not_subject_or_admin"} if {
	not _role("admin")
	not input.subject_id in input.principal.subjects
	some op in ["SET_PRIVACY", "ERASE"]
	_op(op)
}

_rules contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-PRIVACY", "detail": "delete_after_days_invalid"} if {
	_op("SET_PRIVACY")
	d := input.settings.delete_after_days
	d != null
	not _valid_days(d)
}

_valid_days(d) if {
	is_number(d)
	d == floor(d)
	d >= 1
	d <= _cfg_days_max
}

# The person confirms a proposal: the subject itself, or an admin for them.
_rules contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-GATE", "detail": "only_the_subject_confirms"} if {
	_op("CONFIRM_PROPOSAL")
	not _role("admin")
	not _self
}

_self if {
	_role("user")
	input.subject_id in input.principal.subjects
}

# --- SG-WARMTH ---------------------------------------------------------------------

_rules contains {"stop_reason": "SCHEMA_INVALID", "rule": "SG-ENVELOPE", "detail": "purpose_unknown"} if {
	_op("ENVELOPE")
	not input.envelope.purpose in _cfg_purposes
}

_rules contains {"stop_reason": "POLICY_DISABLED", "rule": "SG-WARMTH", "detail": "warmth_in_power"} if {
	_op("ENVELOPE")
	input.envelope.purpose in _cfg_power
	input.envelope.include_narrative == true
}
