package memgate.checks.companion_test

import data.memgate.main

_fact(over) := object.union(
	{
		"operation": "ADD_FACT", "contract": "companion", "now_ms": 0, "subject_id": "alice",
		"principal": {"id": "a1", "tenant": "acme", "subjects": ["alice"], "roles": ["adapter"], "agent_type": null, "job": null},
		"origin": "adapter",
		"fact": {"type": "USER_FACT", "text": "t", "summary": "s", "confidence": 0.9, "source": "llm_extraction"},
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
	d := main.decision with input as _fact({"fact": {"type": type, "text": "t", "summary": "s", "confidence": conf, "source": "manual"}})
	d.stop_reason == want
}

test_reinforcement_applies_a_proposal if {
	d := main.decision with input as _fact({"fact": {"type": "USER_FACT", "text": "t", "summary": "s", "confidence": 0.77, "source": "manual"}, "proposal": {"found": true, "confidence": 0.77, "observations": 1}})
	d.stop_reason == "SUCCESS_STORED"
}

test_ungrounded_is_never_a_proposal if {
	d := main.decision with input as _fact({"grounding": {"score": 0.5}, "fact": {"type": "USER_FACT", "text": "t", "summary": "s", "confidence": 0.77, "source": "manual"}})
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
		"fact": {"type": "USER_FACT", "text": "t", "summary": "s", "confidence": 1, "source": "job"},
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
