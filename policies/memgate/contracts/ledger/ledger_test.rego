package memgate.contracts.ledger_test

import data.memgate.contracts.ledger
import data.memgate.main

_propose(kind, source_type) := {
	"contract": "ledger",
	"operation": "PROPOSE",
	"principal": {"roles": ["agent"]},
	"proposal": {"kind": kind, "source_type": source_type},
	"texts": {"proposedText": "I prefer short answers", "source.note": "After Phase 3 summary"},
}

_finding(field, class, label) := {"field": field, "class": class, "label": label}

_with_findings(inp, findings) := object.union(inp, {"facts": {"findings": findings}})

_approve(text, findings) := {
	"contract": "ledger",
	"operation": "APPROVE",
	"principal": {"roles": ["user"]},
	"texts": {"finalText": text},
	"facts": {"findings": findings},
}

test_p54_kind_allowlist if {
	count(ledger.violations) == 0 with input as _propose("GOAL", "phase3_reflection")
	{"stop_reason": "SCHEMA_INVALID", "rule": "P54-KIND", "detail": "kind_not_allowed"} in ledger.violations with input as _propose("TRAIT", "phase3_reflection")
}

test_p54_source_type_from_data if {
	{"stop_reason": "SCHEMA_INVALID", "rule": "P54-SOURCE", "detail": "source_type_not_allowed"} in ledger.violations with input as _propose("GOAL", "chat_log")
}

test_p54_a_blank_proposed_text if {
	inp := object.union(_propose("GOAL", "phase3_reflection"), {"texts": {"proposedText": "  \n"}})
	{"stop_reason": "SCHEMA_INVALID", "rule": "P54-A", "detail": "proposed_text_required"} in ledger.violations with input as inp
}

test_p54_source_note_findings_answer_schema_invalid[rule_id] if {
	some rule_id in ["signal_name", "score", "classification", "machine_identifier"]
	inp := _with_findings(_propose("GOAL", "phase3_reflection"), [_finding("source.note", "ledger:note", concat(":", ["note", rule_id]))])
	{"stop_reason": "SCHEMA_INVALID", "rule": "P54-SOURCE", "detail": concat("", ["note_carries_", rule_id])} in ledger.violations with input as inp
}

# A note lexicon finding in another field (the proposed text) is not the note's business.
test_p54_source_note_lexicon_only_in_the_note if {
	inp := _with_findings(_propose("GOAL", "phase3_reflection"), [_finding("proposedText", "ledger:note", "note:score")])
	count(ledger.violations) == 0 with input as inp
}

test_p54_owner_only_users_act_on_proposals if {
	{"stop_reason": "NOT_FOUND", "rule": "P54-OWNER", "detail": "no_such_proposal"} in ledger.violations with input as {"contract": "ledger", "operation": "DECLINE", "principal": {"roles": ["agent", "admin"]}}
	count(ledger.violations) == 0 with input as {"contract": "ledger", "operation": "DECLINE", "principal": {"roles": ["user"]}}
	{"stop_reason": "NOT_FOUND", "rule": "P54-OWNER", "detail": "no_such_memory"} in ledger.violations with input as {"contract": "ledger", "operation": "FORGET", "principal": {"roles": ["agent"]}}
}

# No existence oracle: whether the target exists or not, a non-owner's answer is the same.
test_p54_owner_answer_does_not_depend_on_existence[op] if {
	some op in ["APPROVE", "DECLINE", "FORGET"]
	base := {"contract": "ledger", "operation": op, "principal": {"roles": ["agent"], "subjects": ["alice"]}, "subject_id": "alice", "fields": [], "texts": {"finalText": "I prefer tea"}}
	real := main.decision with input as object.union(base, {"target": {"found": true, "status": "active"}})
	made_up := main.decision with input as object.union(base, {"target": {"found": false}})
	real.explanations == made_up.explanations
	real.stop_reason == "NOT_FOUND"
	made_up.stop_reason == "NOT_FOUND"
}

test_p54_b_blank_final_text if {
	{"stop_reason": "SCHEMA_INVALID", "rule": "P54-B", "detail": "final_text_required"} in ledger.violations with input as _approve(" \n ", [])
}

test_p54_c_validator_findings_are_forbidden_naming_the_rule[label] if {
	some label in ["identity_locking:second_person_label", "clinical_language:named_conditions", "authoritative_framing:proof_framing"]
	v := ledger.violations with input as _approve("text", [_finding("finalText", "ledger:validator", label)])
	{"stop_reason": "FORBIDDEN_CATEGORY", "rule": "P54-C", "detail": label} in v
}

test_p54_c_validator_senses_clear_innocent_readings_only[note] if {
	some note, c in {
		"P54-C clearly in a relative clause about a thing (examples that clearly show)": {"term": "clearly", "facts": ["pos:ADV", "in_relative_clause"], "n": 0},
		"P54-C clearly framing a claim about a person (this clearly proves you are lazy)": {"term": "clearly", "facts": ["pos:ADV", "in_relative_clause", "person_after"], "n": 1},
		"P54-C diagnosing a thing (diagnosing flaky tests)": {"term": "diagnose", "facts": ["pos:VERB", "object_thing"], "n": 0},
		"P54-C a person diagnosed (I was diagnosed)": {"term": "diagnose", "facts": ["pos:VERB", "patient_person"], "n": 1},
	}
	f := object.union(_finding("finalText", "ledger:validator", "authoritative_framing:proof_framing"), {"term": c.term, "facts": c.facts})
	count(ledger.violations) == c.n with input as _approve("text", [f])
}

test_p54_c_rejudge_reads_senses_as_approval_does if {
	innocent := object.union(_finding("finalText", "ledger:validator", "clinical_language:diagnostic_terms"), {"term": "diagnose", "facts": ["object_thing"]})
	count(ledger.violations) == 0 with input as object.union(_approve("text", [innocent]), {"operation": "REJUDGE", "principal": {"roles": ["job"]}})
	guilty := object.union(innocent, {"facts": ["patient_person"]})
	count(ledger.violations) == 1 with input as object.union(_approve("text", [guilty]), {"operation": "REJUDGE", "principal": {"roles": ["job"]}})
}

test_p54_c_validator_senses_are_well_formed_data if {
	every _, sense in ledger.lexicons.validator.senses {
		regex.is_valid(sense.forms)
		count(sense.innocent) > 0
	}
}

test_p54_c_no_findings_passes if {
	count(ledger.violations) == 0 with input as _approve("I've noticed I focus better in the morning", [])
}

test_p54_c_validator_patterns_are_well_formed_data if {
	every group, rules in ledger.lexicons.validator.groups {
		count(rules) > 0
		every rule in rules {
			is_string(rule.id)
			regex.is_valid(rule.pattern)
			group != ""
		}
	}
}

test_p54_e_unresolved_selection_is_not_found_but_partial if {
	v := ledger.violations with input as {"contract": "ledger", "operation": "SELECT", "principal": {"roles": ["user"]}, "selection": {"requested": 2, "unresolved": 1}}
	{"stop_reason": "NOT_FOUND", "rule": "P54-E", "detail": "selected_item_not_found", "partial": true} in v
}

_select(roles, unresolved) := {
	"contract": "ledger",
	"operation": "SELECT",
	"principal": {"roles": roles, "subjects": ["alice"]},
	"subject_id": "alice",
	"fields": [],
	"selection": {"requested": 2, "unresolved": unresolved},
}

# P54-E P54-F: a selection some of whose ids did not resolve answers NOT_FOUND and still gives
# what resolved (outcome allow); refused for another reason, it gives nothing.
test_p54_e_partial_selection_outcome if {
	d := main.decision with input as _select(["user"], 1)
	d.outcome == "allow"
	d.stop_reason == "NOT_FOUND"
	d.explanations == ["P54-E: selected_item_not_found"]
	every_found := main.decision with input as _select(["user"], 0)
	every_found.outcome == "allow"
	every_found.stop_reason == "SUCCESS_READ"
	agent := main.decision with input as _select(["agent"], 1)
	agent.outcome == "refuse"
	agent.stop_reason == "POLICY_DISABLED"
}

# P54-A SPEC-D3: a proposal without violations is held for its owner, never applied.
test_p54_a_proposal_is_held if {
	inp := object.union(_propose("GOAL", "phase3_reflection"), {"principal": {"roles": ["agent"], "subjects": ["alice"]}, "subject_id": "alice", "fields": []})
	d := main.decision with input as inp
	d.outcome == "hold"
	d.stop_reason == "MISSING_EXPLICIT_CONSENT"
}

test_every_declared_field_has_a_bound if {
	every name in ["subjectId", "proposedText", "kind", "source.sourceType", "source.sourceId", "source.note", "finalText", "proposalId", "memoryId", "memoryIds", "memoryIds[]"] {
		ledger.fields[name] > 0
	}
}

test_other_contracts_untouched if {
	count(ledger.violations) == 0 with input as {"contract": "governed", "operation": "STORE", "principal": {"roles": ["agent"]}}
}

# P54-E each selected id is answered by the policy, in the order asked: what resolved has the
# operation's success code, what did not is NOT_FOUND; the selection still answers what resolved.
test_p54_e_each_selected_id_has_its_answer[note] if {
	some [note, resolved, want] in [
		["P54-E all resolved", [true, true], ["SUCCESS_READ", "SUCCESS_READ"]],
		["P54-E one unresolved", [true, false], ["SUCCESS_READ", "NOT_FOUND"]],
		["P54-F nothing selected", [], []],
	]
	unresolved := count([r | some r in resolved; r == false])
	d := main.decision with input as object.union(_select(["user"], unresolved), {"selection": {"requested": count(resolved), "unresolved": unresolved, "resolved": resolved}})
	d.outcome == "allow"
	d.detail.selections == want
}
