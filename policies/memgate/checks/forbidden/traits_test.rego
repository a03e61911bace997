package memgate.checks.forbidden_test

import data.memgate.checks.forbidden

_trait(facts) := {"field": "value", "class": "trait_statement", "label": "trait:en", "facts": facts}

_profiling_in_value := {"stop_reason": "FORBIDDEN_CATEGORY", "rule": "C19-FORBID", "detail": "profiling_in_value"}

test_trait_statements_that_judge_a_person_are_refused[note] if {
	some note, facts in {
		"negative valence about a name": ["subject:name", "frame:copula", "valence:negative"],
		"an impression of a relative": ["subject:relation", "frame:perception", "valence:none"],
		"not the sharpest": ["subject:name", "frame:superlative", "valence:negative"],
		"a bit of a pushover": ["subject:name", "frame:copula", "valence:none", "cue:evaluative_noun"],
		"the type who never": ["subject:name", "frame:type", "valence:negative"],
		"bare praise of looks or mind": ["subject:name", "frame:copula", "valence:positive"],
		"the user, intensified": ["subject:user", "frame:copula", "valence:none", "intensified"],
		"a relative tends to": ["subject:relation", "frame:tendency", "valence:none"],
		"the user tends to": ["subject:user", "frame:tendency", "valence:none"],
		"a name tends to, a pronoun follows": ["subject:name", "frame:tendency", "valence:none", "pronoun_follows"],
		"a name tends to, negatively": ["subject:name", "frame:tendency", "valence:negative"],
	}
	forbidden.violations == {_profiling_in_value} with input as _write([_trait(facts)], {})
}

test_trait_statements_that_do_not_judge_are_stored[note] if {
	some note, findings in {
		"intensified praise scoped to a task": [_trait(["subject:name", "frame:copula", "valence:positive", "intensified", "scoped"])],
		"praise scoped to a task": [_trait(["subject:name", "frame:copula", "valence:positive", "scoped"])],
		"a role": [_trait(["subject:name", "frame:copula", "valence:positive", "definite"])],
		"the type who writes letters": [_trait(["subject:relation", "frame:type", "valence:none"])],
		"a name tends to, no person in sight (Jira tends to freeze)": [_trait(["subject:name", "frame:tendency", "valence:none"])],
		"a relative tends to, in a story": [_trait(["subject:relation", "frame:tendency", "valence:none", "fiction"])],
		"no evaluation": [_trait(["subject:name", "frame:copula", "valence:none"])],
		"no person": [_trait(["frame:copula", "valence:negative"])],
		"a character in a story": [_trait(["subject:name", "frame:copula", "valence:negative", "fiction"])],
		"a pet": [_trait(["subject:pronoun", "frame:copula", "valence:negative"]), _f("value", "context:animal")],
		"a job": [_trait(["subject:relation", "frame:copula", "valence:negative"]), _f("value", "context:occupation")],
		"software talk": [_trait(["subject:name", "frame:copula", "valence:negative"]), _f("value", "context:software")],
	}
	count(forbidden.violations) == 0 with input as _write(findings, {})
}

test_trait_software_context_does_not_clear_a_person if {
	findings := [_trait(["subject:name", "frame:copula", "valence:negative"]), _f("value", "context:software"), _f("value", "context:personal")]
	forbidden.violations == {_profiling_in_value} with input as _write(findings, {})
}

# C19-FORBID profiling by inference: a hedge and a person's means, about a person, not about software.
test_hedged_means_of_a_person_are_refused if {
	findings := [_f("value", "context:hedge"), _f("value", "context:means"), _f("value", "context:personal")]
	forbidden.violations == {_profiling_in_value} with input as _write(findings, {})
}

test_hedged_means_without_a_person_or_in_software_talk_are_stored[note] if {
	some note, findings in {
		"no person": [_f("value", "context:hedge"), _f("value", "context:means")],
		"no hedge": [_f("value", "context:means"), _f("value", "context:personal")],
		"software": [_f("value", "context:hedge"), _f("value", "context:means"), _f("value", "context:personal"), _f("value", "context:software")],
		"the user's own means": [_f("value", "context:hedge"), _f("value", "context:means"), _f("value", "context:personal"), _f("value", "context:self_means")],
	}
	count(forbidden.violations) == 0 with input as _write(findings, {})
}
