package memgate.contracts.agent_test

import data.memgate.contracts.agent
import data.memgate.main

_facts := {"schema_issues": [], "blank": [], "refs": [], "kind": "fact", "change_target_count": 0}

_write(extra) := object.union(
	{
		"operation": "WRITE",
		"contract": "agent",
		"subject_id": "repo:r1",
		"principal": {"id": "a", "tenant": "t", "subjects": ["repo:r1"], "roles": ["agent"]},
		"agent": _facts,
		"fields": [],
	},
	extra,
)

_field(field, path, kind, length, extra) := object.union(
	{"field": field, "path": path, "kind": kind, "length": length, "wrong_type": false, "ill_formed": false, "control": false, "pattern_mismatch": false},
	extra,
)

test_clean_write_is_stored if {
	d := main.decision with input as _write({})
	d.stop_reason == "SUCCESS_STORED"
	d.outcome == "allow"
	d.errors == []
}

test_schema_issue_names_its_pointer if {
	d := main.decision with input as _write({"agent": object.union(_facts, {"schema_issues": [
		{"pointer": "/memory/kind", "message": "must be one of a"},
		{"pointer": "", "message": "x"},
	]})})
	d.stop_reason == "SCHEMA_INVALID"
	d.outcome == "refuse"
	d.explanations == ["IF1-VALID: #/memory/kind: must be one of a", "IF1-VALID: #: x"]
	d.errors == [{"pointer": "", "message": "x"}, {"pointer": "/memory/kind", "message": "must be one of a"}]
}

test_unknown_link_is_schema_invalid if {
	d := main.decision with input as _write({"agent": object.union(_facts, {
		"kind": "solution",
		"refs": [{"pointer": "/memory/links/problem_id", "found": false, "kind": null, "expected_kinds": ["problem"]}],
	})})
	d.stop_reason == "SCHEMA_INVALID"
	d.errors == [{"pointer": "/memory/links/problem_id", "message": "names no memory in this repository or the tenant's global space"}]
}

test_problem_link_to_a_fact_is_schema_invalid if {
	d := main.decision with input as _write({"agent": object.union(_facts, {
		"kind": "solution",
		"refs": [{"pointer": "/memory/links/problem_id", "found": true, "kind": "fact", "expected_kinds": ["problem"]}],
	})})
	d.explanations == [`IF1-VALID: #/memory/links/problem_id: must name a memory of kind problem, but names one of kind "fact"`]
}

test_change_targets_need_kind_change if {
	main.decision.stop_reason == "SCHEMA_INVALID" with input as _write({"agent": object.union(_facts, {"change_target_count": 1})})
	main.decision.stop_reason == "SUCCESS_STORED" with input as _write({"agent": object.union(_facts, {"kind": "change", "change_target_count": 1})})
}

test_oversized_text_is_bounds_exceeded_at_its_pointer if {
	d := main.decision with input as _write({"fields": [_field("memory.text", "memory.text", "text", 4001, {})]})
	d.stop_reason == "BOUNDS_EXCEEDED"
	d.errors == [{"pointer": "/memory/text", "message": "is 4001 long; at most 4000 allowed"}]
	"IF1-VALID: #/memory/text: is 4001 long; at most 4000 allowed" in d.explanations
}

test_too_many_list_elements_name_the_list if {
	d := main.decision with input as _write({"fields": [_field("memory.evidence_refs", "memory.evidence_refs", "list", 51, {})]})
	d.errors == [{"pointer": "/memory/evidence_refs", "message": "lists 51 items; at most 50 allowed"}]
}

test_list_element_pointer if {
	d := main.decision with input as _write({"fields": [_field("memory.links.related_memory_ids[]", "memory.links.related_memory_ids[3]", "id", 65, {})]})
	d.errors == [{"pointer": "/memory/links/related_memory_ids/3", "message": "is 65 long; at most 64 allowed"}]
}

test_ill_formed_unicode_is_schema_invalid_at_its_pointer[note] if {
	some note, c in {
		"C19-ITEM SPEC-D3a lone surrogate in text": ["memory.text", "memory.text", "text", "/memory/text"],
		"C19-ITEM SPEC-D3a reversed surrogates in an evidence ref": ["memory.evidence_refs[]", "memory.evidence_refs[0]", "text", "/memory/evidence_refs/0"],
		"C19-ITEM SPEC-D3a lone surrogate in a rationale of an update": ["updates.truth.rationale", "updates.truth.rationale", "text", "/updates/truth/rationale"],
	}
	d := main.decision with input as _write({"fields": [_field(c[0], c[1], c[2], 3, {"ill_formed": true})]})
	d.stop_reason == "SCHEMA_INVALID"
	d.errors == [{"pointer": c[3], "message": "must be well-formed UTF-16 (no lone or reversed surrogates)"}]
}

test_control_character_is_schema_invalid if {
	d := main.decision with input as _write({"fields": [_field("query", "query", "text", 3, {"control": true})], "operation": "READ"})
	d.stop_reason == "SCHEMA_INVALID"
	d.errors == [{"pointer": "/query", "message": "must not contain control characters other than tab and newline"}]
}

test_wrong_type_is_left_to_the_schema_issue_at_the_same_pointer if {
	inp := _write({
		"fields": [_field("repo_id", "repo_id", "id", 0, {"wrong_type": true})],
		"agent": object.union(_facts, {"schema_issues": [{"pointer": "/repo_id", "message": "must be a string"}]}),
	})
	d := main.decision with input as inp
	d.explanations == ["IF1-VALID: #/repo_id: must be a string"]
}

test_wrong_type_without_a_schema_issue_is_still_refused if {
	d := main.decision with input as _write({"fields": [_field("repo_id", "repo_id", "id", 0, {"wrong_type": true})]})
	d.stop_reason == "SCHEMA_INVALID"
	d.errors == [{"pointer": "/repo_id", "message": "has the wrong type"}]
}

test_dispatch_is_judged_by_its_own_issue if {
	inp := _write({
		"operation": "DISPATCH",
		"fields": [_field("document", "document", "object", 0, {"wrong_type": true})],
		"agent": object.union(_facts, {"schema_issues": [{"pointer": "", "message": "must be a JSON object"}]}),
	})
	d := main.decision with input as inp
	d.stop_reason == "SCHEMA_INVALID"
	d.errors == [{"pointer": "", "message": "must be a JSON object"}]
}

test_schema_invalid_outranks_bounds if {
	main.decision.stop_reason == "SCHEMA_INVALID" with input as _write({
		"agent": object.union(_facts, {"schema_issues": [{"pointer": "/op", "message": "m"}]}),
		"fields": [_field("memory.text", "memory.text", "text", 4001, {})],
	})
}

test_every_declared_bound_is_in_data if {
	every name in ["memory.text", "memory.rationale", "memory.evidence_refs[]", "query", "updates.truth.rationale", "updates.utility.evidence_refs[]", "memory", "document"] {
		is_number(agent.fields[name])
	}
}

test_repo_not_in_token_is_policy_disabled_for_writes if {
	d := main.decision with input as _write({"subject_id": "repo:other"})
	d.stop_reason == "POLICY_DISABLED"
	d.explanations == ["AUTHZ-SUBJECT: subject_not_in_token"]
}

test_repo_not_in_token_is_not_found_for_reads if {
	main.decision.stop_reason == "NOT_FOUND" with input as _write({"subject_id": "repo:other", "operation": "READ"})
}

test_update_of_missing_memory_is_not_found if {
	main.decision.stop_reason == "NOT_FOUND" with input as _write({"operation": "UPDATE", "target": {"found": false}})
	main.decision.stop_reason == "SUCCESS_UPDATED" with input as _write({"operation": "UPDATE", "target": {"found": true, "status": "active"}})
	main.decision.stop_reason == "SUCCESS_READ" with input as _write({"operation": "UPDATE_DRY_RUN", "target": {"found": true, "status": "active"}})
}

test_auditor_may_not_write if {
	main.decision.stop_reason == "POLICY_DISABLED" with input as _write({"principal": {"id": "a", "tenant": "t", "subjects": ["repo:r1"], "roles": ["auditor"]}})
}

test_secret_in_any_text_is_forbidden[note] if {
	some note, field in {
		"C19-FORBID text": "memory.text",
		"C19-FORBID rationale": "memory.rationale",
		"C19-FORBID evidence ref": "memory.evidence_refs[2]",
		"C19-FORBID update rationale": "updates.utility.rationale",
	}
	inp := _write({"texts": {field: "x"}, "facts": {"findings": [{"field": field, "class": "credentials", "label": "secretlint:openai"}]}})
	main.decision.stop_reason == "FORBIDDEN_CATEGORY" with input as inp
}

test_secret_in_a_query_is_forbidden if {
	inp := _write({"operation": "READ", "texts": {"query": "x"}, "facts": {"findings": [{"field": "query", "class": "biometrics_ids", "label": "card_number_luhn"}]}})
	main.decision.stop_reason == "FORBIDDEN_CATEGORY" with input as inp
}

test_other_contracts_are_untouched if {
	count(agent.violations) == 0 with input as {"contract": "governed", "agent": {"schema_issues": [{"pointer": "", "message": "x"}]}}
}
