package memgate.contracts.companion_test

import data.memgate.main

_fact(over) := object.union(
	{
		"operation": "ADD_FACT", "contract": "companion", "now_ms": 0, "subject_id": "alice",
		"principal": {"id": "a1", "tenant": "acme", "subjects": ["alice"], "roles": ["adapter"], "agent_type": null, "job": null},
		"origin": "adapter",
		"fact": {"type": "USER_FACT", "confidence": 0.9, "source": "llm_extraction"},
		"texts": {"text": "t", "summary": "s"},
		"grounding": {"score": 1}, "privacy": {"memory_enabled": true, "learn_patterns": true, "share_with": []},
		"supersedes": {"requested": false}, "proposal": {"found": false},
	},
	over,
)

test_gate_boundaries[note] if {
	some [note, conf, type, want] in [
		["SG-GATE 0.80 applies", 0.8, "USER_FACT", "SUCCESS_STORED"],
		["SG-GATE 0.79 is a proposal", 0.79, "USER_FACT", "MISSING_EXPLICIT_CONSENT"],
		["SG-GATE 0.75 is a proposal", 0.75, "USER_FACT", "MISSING_EXPLICIT_CONSENT"],
		["SG-GATE 0.74 fact refused", 0.74, "USER_FACT", "NO_SOURCE_DERIVED_FACT"],
		["SG-GATE 0.74 narrative stored", 0.74, "SHARED_NARRATIVE", "SUCCESS_STORED"],
		["SG-GATE 0.60 narrative stored", 0.6, "SHARED_NARRATIVE", "SUCCESS_STORED"],
		["SG-GATE 0.59 discarded", 0.59, "SHARED_NARRATIVE", "NO_SOURCE_DERIVED_FACT"],
		["SG-GATE 1.5 invalid", 1.5, "USER_FACT", "SCHEMA_INVALID"],
	]
	d := main.decision with input as _fact({"fact": {"type": type, "confidence": conf, "source": "manual"}})
	d.stop_reason == want
}

test_reinforcement_applies_a_proposal if {
	d := main.decision with input as _fact({"fact": {"type": "USER_FACT", "confidence": 0.77, "source": "manual"}, "proposal": {"found": true, "confidence": 0.77, "observations": 1}})
	d.stop_reason == "SUCCESS_STORED"
}

test_ungrounded_is_never_a_proposal if {
	d := main.decision with input as _fact({"grounding": {"score": 0.5}, "fact": {"type": "USER_FACT", "confidence": 0.77, "source": "manual"}})
	d.stop_reason == "NO_SOURCE_DERIVED_FACT"
}

test_authority[note] if {
	some [note, principal, origin, want] in [
		["SG-AUTHORITY user", {"roles": ["user"]}, "adapter", "POLICY_DISABLED"],
		["SG-AUTHORITY agent", {"roles": ["agent"]}, "adapter", "POLICY_DISABLED"],
		["SG-AUTHORITY job without context", {"roles": ["job"], "job": null}, "job", "POLICY_DISABLED"],
		["SG-AUTHORITY job with context", {"roles": ["job"], "job": {"id": "j1", "kind": "extract"}}, "job", "SUCCESS_STORED"],
		["SG-AUTHORITY admin", {"roles": ["admin"]}, "manual", "SUCCESS_STORED"],
		["SG-AUTHORITY webhook", {"roles": ["adapter"]}, "webhook", "POLICY_DISABLED"],
		["SG-AUTHORITY llm output", {"roles": ["adapter"]}, "llm_output", "POLICY_DISABLED"],
		["SG-AUTHORITY bot response", {"roles": ["adapter"]}, "bot_response", "POLICY_DISABLED"],
	]
	p := object.union({"id": "x", "tenant": "acme", "subjects": ["alice"], "agent_type": null, "job": null}, principal)
	d := main.decision with input as _fact({"principal": p, "origin": origin})
	d.stop_reason == want
	_explained(d, want)
}

_explained(_, want) if want != "POLICY_DISABLED"

_explained(d, "POLICY_DISABLED") if d.explanations == ["SG-AUTHORITY: no_write_authority"]

test_append_change_is_schema_invalid if {
	d := main.decision with input as _fact({"supersedes": {"requested": true, "found": true, "same_content": false}})
	d.stop_reason == "SCHEMA_INVALID"
}

test_opt_out_stops_learning if {
	d := main.decision with input as _fact({"privacy": {"memory_enabled": false, "learn_patterns": true}})
	d.stop_reason == "POLICY_DISABLED"
}

test_warmth_in_power_refused if {
	d := main.decision with input as _fact({"operation": "ENVELOPE", "envelope": {"purpose": "PRICING", "include_narrative": true}})
	d.explanations == ["SG-WARMTH: warmth_in_power"]
}

_consolidate(over) := object.union(
	_fact({
		"operation": "CONSOLIDATE",
		"fact": {"type": "USER_FACT", "confidence": 1, "source": "job"},
		"consolidate": {"inputs": [{"found": true, "source_refs": 1}, {"found": true, "source_refs": 2}], "types": ["USER_FACT"]},
	}),
	over,
)

test_consolidation[note] if {
	some [note, over, want] in [
		["MP-CONSOLIDATE with sources", {}, "SUCCESS_STORED"],
		["MP-CONSOLIDATE an input without sources", {"consolidate": {"inputs": [{"found": true, "source_refs": 0}, {"found": true, "source_refs": 2}], "types": ["USER_FACT"]}}, "NO_SOURCE_DERIVED_FACT"],
		["MP-CONSOLIDATE an unknown input", {"consolidate": {"inputs": [{"found": false, "source_refs": 0}, {"found": true, "source_refs": 2}], "types": ["USER_FACT"]}}, "NOT_FOUND"],
		["MP-CONSOLIDATE mixed types", {"consolidate": {"inputs": [{"found": true, "source_refs": 1}, {"found": true, "source_refs": 1}], "types": ["SHARED_NARRATIVE", "USER_FACT"]}}, "SCHEMA_INVALID"],
		["MP-CONSOLIDATE one input", {"consolidate": {"inputs": [{"found": true, "source_refs": 1}], "types": ["USER_FACT"]}}, "SCHEMA_INVALID"],
		["MP-CONSOLIDATE ungrounded", {"grounding": {"score": 0.2}}, "NO_SOURCE_DERIVED_FACT"],
		["SG-AUTHORITY a job may not consolidate", {"principal": {"id": "j", "tenant": "acme", "subjects": ["alice"], "roles": ["job"], "agent_type": null, "job": {"id": "j1", "kind": "k"}}}, "POLICY_DISABLED"],
	]
	d := main.decision with input as _consolidate(over)
	d.stop_reason == want
}

test_gate_travels_with_the_decision[note] if {
	some [note, conf, type, over, want] in [
		["SG-GATE apply", 0.9, "USER_FACT", {}, {"band": "apply", "effective_confidence": 0.9, "reason": null, "answered": false}],
		["SG-GATE proposal", 0.77, "USER_FACT", {}, {"band": "proposal", "effective_confidence": 0.77, "reason": null, "answered": true}],
		["SG-GATE narrative", 0.7, "SHARED_NARRATIVE", {}, {"band": "narrative", "effective_confidence": 0.7, "reason": null, "answered": false}],
		["SG-GATE narrative only", 0.7, "USER_FACT", {}, {"band": "discard", "effective_confidence": 0.7, "reason": "narrative_only", "answered": true}],
		["SG-GATE below gate", 0.5, "USER_FACT", {}, {"band": "discard", "effective_confidence": 0.5, "reason": "below_gate", "answered": true}],
		["SG-GROUND ungrounded", 0.9, "USER_FACT", {"grounding": {"score": 0.3}}, {"band": "ungrounded", "effective_confidence": 0.9, "reason": "ungrounded", "answered": true}],
		["SG-GATE reinforced", 0.77, "USER_FACT", {"proposal": {"found": true, "confidence": 0.76, "observations": 1}}, {"band": "apply", "effective_confidence": 0.82, "reason": null, "answered": false}],
		["SG-GATE reinforced, capped at 1", 0.99, "USER_FACT", {"proposal": {"found": true, "confidence": 0.99, "observations": 3}}, {"band": "apply", "effective_confidence": 1, "reason": null, "answered": false}],
	]
	d := main.decision with input as _fact(object.union({"fact": {"type": type, "confidence": conf, "source": "manual"}}, over))
	d.detail == want
}

test_model_judge_verdict_is_a_fact_the_policy_weighs[note] if {
	some [note, grounding, want] in [
		["SG-GROUND no judge: the score alone", {"score": 0.85, "judge": null}, "apply"],
		["SG-GROUND judge grounded: a lower score is enough", {"score": 0.6, "judge": "grounded"}, "apply"],
		["SG-GROUND judge grounded: not below judge_grounded_min", {"score": 0.3, "judge": "grounded"}, "ungrounded"],
		["SG-GROUND judge ungrounded: refused whatever the score", {"score": 1, "judge": "ungrounded"}, "ungrounded"],
		["SG-GROUND judge unavailable fails closed", {"score": 1, "judge": "unavailable"}, "ungrounded"],
	]
	d := main.decision with input as _fact({"grounding": grounding, "fact": {"type": "USER_FACT", "confidence": 0.9, "source": "manual"}})
	d.detail.band == want
}

test_gate_outcomes[note] if {
	some [note, conf, want] in [
		["SG-GATE apply allows", 0.9, "allow"],
		["SG-GATE a proposal holds", 0.77, "hold"],
		["SG-GATE a discard refuses", 0.6, "refuse"],
	]
	d := main.decision with input as _fact({"fact": {"type": "USER_FACT", "confidence": conf, "source": "manual"}})
	d.outcome == want
}

# SG-GATE a discard is recorded as one only when the gate's verdict is the answer: a fact
# below the gate that a higher-priority rule refuses (memory disabled) is not "discarded".
test_gate_answers_only_when_its_verdict_wins[note] if {
	some [note, over, answered] in [
		["SG-GATE below gate, the gate answers", {}, true],
		["SG-PRIVACY memory disabled outranks the gate", {"privacy": {"memory_enabled": false, "learn_patterns": true, "share_with": []}}, false],
	]
	d := main.decision with input as _fact(object.union({"fact": {"type": "USER_FACT", "confidence": 0.5, "source": "manual"}}, over))
	d.detail.band == "discard"
	d.detail.answered == answered
}

test_malformed_fact_has_no_gate if {
	d := main.decision with input as _fact({"fact": {"type": "USER_FACT", "confidence": 0.77, "source": "gossip"}})
	d.stop_reason == "SCHEMA_INVALID"
	d.outcome == "refuse"
	d.detail == null
}

test_other_operations_have_no_gate if {
	d := main.decision with input as _fact({"operation": "ENVELOPE", "envelope": {"purpose": "RESPONSE", "include_narrative": false}})
	d.stop_reason == "SUCCESS_READ"
	d.detail == null
}

test_valid_to_must_be_a_date[note] if {
	some [note, valid_to, want] in [
		["MP-TEMPORAL no valid_to", {"given": false, "valid": false}, "SUCCESS_STORED"],
		["MP-TEMPORAL a date", {"given": true, "valid": true}, "SUCCESS_STORED"],
		["MP-TEMPORAL not a date", {"given": true, "valid": false}, "SCHEMA_INVALID"],
	]
	d := main.decision with input as _fact({"valid_to": valid_to})
	d.stop_reason == want
}

_field(name, path, kind, length) := {
	"field": name, "path": path, "kind": kind, "length": length,
	"wrong_type": false, "ill_formed": false, "control": false, "pattern_mismatch": false,
}

test_declared_fields_are_bounded[note] if {
	some [note, f, want] in [
		["C19-ITEM a source ref within its bound", _field("sourceRefs[]", "sourceRefs[0]", "text", 256), "SUCCESS_STORED"],
		["C19-ITEM a source ref too long", _field("sourceRefs[]", "sourceRefs[0]", "text", 257), "BOUNDS_EXCEEDED"],
		["C19-ITEM too many source refs", _field("sourceRefs", "sourceRefs", "list", 33), "BOUNDS_EXCEEDED"],
		["C19-ITEM a control character in a source ref", object.union(_field("sourceRefs[]", "sourceRefs[0]", "text", 3), {"control": true}), "SCHEMA_INVALID"],
		["C19-ITEM a lone surrogate in the text", object.union(_field("text", "text", "text", 3), {"ill_formed": true}), "SCHEMA_INVALID"],
		["C19-ITEM the summary within its bound", _field("summary", "summary", "text", 8192), "SUCCESS_STORED"],
	]
	d := main.decision with input as _fact({"fields": [f]})
	d.stop_reason == want
}

test_share_with_is_bounded[note] if {
	some [note, f, want] in [
		["SG-PRIVACY an agent type within its bound", _field("shareWith[]", "shareWith[0]", "text", 64), "SUCCESS_UPDATED"],
		["SG-PRIVACY an agent type too long", _field("shareWith[]", "shareWith[0]", "text", 10000), "BOUNDS_EXCEEDED"],
		["SG-PRIVACY too many agent types", _field("shareWith", "shareWith", "list", 33), "BOUNDS_EXCEEDED"],
		["SG-PRIVACY NUL in an agent type", object.union(_field("shareWith[]", "shareWith[0]", "text", 3), {"control": true}), "SCHEMA_INVALID"],
	]
	d := main.decision with input as {
		"operation": "SET_PRIVACY", "contract": "companion", "now_ms": 0, "subject_id": "alice",
		"principal": {"id": "alice", "tenant": "acme", "subjects": ["alice"], "roles": ["user"], "agent_type": null, "job": null},
		"settings": {"delete_after_days": null}, "fields": [f],
	}
	d.stop_reason == want
}

test_every_declared_field_has_a_bound if {
	every name in ["subjectId", "type", "text", "summary", "source", "origin", "supersedes", "sourceRefs", "sourceRefs[]", "validTo", "proposalId", "memoryId", "purpose", "shareWith", "shareWith[]", "memoryIds", "memoryIds[]", "justification"] {
		data.memgate.contracts.companion.fields[name] > 0
	}
}

test_a_card_number_in_a_source_ref_is_forbidden if {
	d := main.decision with input as _fact({
		"texts": {"text": "t", "summary": "s", "sourceRefs[0]": "4111 1111 1111 1111"},
		"facts": {"findings": [{"field": "sourceRefs[0]", "class": "biometrics_ids", "label": "card_number_luhn"}]},
	})
	d.stop_reason == "FORBIDDEN_CATEGORY"
}

test_a_card_number_in_share_with_is_forbidden if {
	d := main.decision with input as {
		"operation": "SET_PRIVACY", "contract": "companion", "now_ms": 0, "subject_id": "alice",
		"principal": {"id": "alice", "tenant": "acme", "subjects": ["alice"], "roles": ["user"], "agent_type": null, "job": null},
		"settings": {"delete_after_days": null},
		"texts": {"shareWith[0]": "4111 1111 1111 1111"},
		"facts": {"findings": [{"field": "shareWith[0]", "class": "biometrics_ids", "label": "card_number_luhn"}]},
	}
	d.stop_reason == "FORBIDDEN_CATEGORY"
}
