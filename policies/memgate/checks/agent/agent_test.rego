package memgate.checks.agent_test

import data.memgate.checks.agent
import data.memgate.main

_write(extra) := object.union(
	{
		"operation": "WRITE",
		"contract": "agent",
		"subject_id": "repo:r1",
		"principal": {"id": "a", "tenant": "t", "subjects": ["repo:r1"], "roles": ["agent"]},
		"agent": {"schema_issues": [], "blank": [], "refs": [], "sizes": [], "kind": "fact", "change_target_count": 0},
	},
	extra,
)

test_clean_write_is_stored if {
	main.decision.stop_reason == "SUCCESS_STORED" with input as _write({})
}

test_schema_issue_names_its_pointer if {
	d := main.decision with input as _write({"agent": {
		"schema_issues": [{"pointer": "/memory/kind", "message": "must be one of a"}, {"pointer": "", "message": "x"}],
		"blank": [], "refs": [], "sizes": [], "kind": "fact", "change_target_count": 0,
	}})
	d.stop_reason == "SCHEMA_INVALID"
	d.explanations == ["IF1-VALID: #/memory/kind: must be one of a", "IF1-VALID: #: x"]
}

test_unknown_link_is_schema_invalid if {
	d := main.decision with input as _write({"agent": {
		"schema_issues": [], "blank": [], "sizes": [], "kind": "solution", "change_target_count": 0,
		"refs": [{"pointer": "/memory/links/problem_id", "found": false, "kind": null, "expected_kinds": ["problem"]}],
	}})
	d.stop_reason == "SCHEMA_INVALID"
}

test_problem_link_to_a_fact_is_schema_invalid if {
	d := main.decision with input as _write({"agent": {
		"schema_issues": [], "blank": [], "sizes": [], "kind": "solution", "change_target_count": 0,
		"refs": [{"pointer": "/memory/links/problem_id", "found": true, "kind": "fact", "expected_kinds": ["problem"]}],
	}})
	d.explanations == [`IF1-VALID: #/memory/links/problem_id: must name a memory of kind problem, but names one of kind "fact"`]
}

test_change_targets_need_kind_change if {
	"SCHEMA_INVALID" == main.decision.stop_reason with input as _write({"agent": {"schema_issues": [], "blank": [], "refs": [], "sizes": [], "kind": "fact", "change_target_count": 1}})
	"SUCCESS_STORED" == main.decision.stop_reason with input as _write({"agent": {"schema_issues": [], "blank": [], "refs": [], "sizes": [], "kind": "change", "change_target_count": 1}})
}

test_oversized_text_is_bounds_exceeded if {
	d := main.decision with input as _write({"agent": {
		"schema_issues": [], "blank": [], "refs": [], "kind": "fact", "change_target_count": 0,
		"sizes": [{"pointer": "/memory/text", "bound": "text", "size": 4001}],
	}})
	d.stop_reason == "BOUNDS_EXCEEDED"
	d.explanations == ["IF1-VALID: #/memory/text: is 4001 long; at most 4000 allowed"]
}

test_schema_invalid_outranks_bounds if {
	"SCHEMA_INVALID" == main.decision.stop_reason with input as _write({"agent": {
		"schema_issues": [{"pointer": "/op", "message": "m"}], "blank": [], "refs": [], "kind": "fact", "change_target_count": 0,
		"sizes": [{"pointer": "/memory/text", "bound": "text", "size": 4001}],
	}})
}

test_repo_not_in_token_is_policy_disabled_for_writes if {
	"POLICY_DISABLED" == main.decision.stop_reason with input as _write({"subject_id": "repo:other"})
}

test_repo_not_in_token_is_not_found_for_reads if {
	"NOT_FOUND" == main.decision.stop_reason with input as _write({"subject_id": "repo:other", "operation": "READ"})
}

test_update_of_missing_memory_is_not_found if {
	"NOT_FOUND" == main.decision.stop_reason with input as _write({"operation": "UPDATE", "target": {"found": false}})
	"SUCCESS_UPDATED" == main.decision.stop_reason with input as _write({"operation": "UPDATE", "target": {"found": true, "status": "active"}})
	"SUCCESS_READ" == main.decision.stop_reason with input as _write({"operation": "UPDATE_DRY_RUN", "target": {"found": true, "status": "active"}})
}

test_auditor_may_not_write if {
	"POLICY_DISABLED" == main.decision.stop_reason with input as _write({"principal": {"id": "a", "tenant": "t", "subjects": ["repo:r1"], "roles": ["auditor"]}})
}

test_other_contracts_are_untouched if {
	count(agent.violations) == 0 with input as {"contract": "governed", "agent": {"schema_issues": [{"pointer": "", "message": "x"}]}}
}
