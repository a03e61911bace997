package memgate.checks.judge_test

import data.memgate.checks.judge

_codes(findings) := {v.stop_reason | some v in judge.violations with input as {"operation": "STORE", "contract": "governed", "facts": {"findings": findings}}}

test_model_judge_labels_are_facts_the_policy_maps[note] if {
	some note, c in {
		"C19-FORBID a forbidden class labelled by the judge": {"findings": [{"field": "value", "class": "judge:health", "label": "model-judge"}], "want": {"FORBIDDEN_CATEGORY"}},
		"C19-FORBID a class the policy does not forbid is no violation": {"findings": [{"field": "value", "class": "judge:weather", "label": "model-judge"}], "want": set()},
		"C19-FAIL an unavailable judge fails closed": {"findings": [{"field": "entry", "class": "judge:unavailable", "label": "model-judge"}], "want": {"INTERNAL_INCONSISTENCY"}},
		"C19-FORBID no judge, no judge violation": {"findings": [], "want": set()},
	}
	_codes(c.findings) == c.want
}
