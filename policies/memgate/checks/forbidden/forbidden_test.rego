package memgate.checks.forbidden_test

import data.memgate.checks.forbidden

_write(findings, extra) := object.union(
	{
		"operation": "STORE", "contract": "governed", "texts": {"key": "k", "value": "v"},
		"item": {"category": "PREFERENCE", "origin": "USER"}, "facts": {"findings": findings},
	},
	extra,
)

_f(field, class) := {"field": field, "class": class, "label": "test"}

test_every_forbidden_class_is_refused[note] if {
	some class, _ in data.memgate.forbidden.classes
	note := sprintf("C19-FORBID %s", [class])
	v := forbidden.violations with input as _write([_f("value", class)], {})
	v == {{"stop_reason": "FORBIDDEN_CATEGORY", "rule": "C19-FORBID", "detail": sprintf("%s_in_value", [class])}}
}

test_c19_forbid_in_key_too if {
	v := forbidden.violations with input as _write([_f("key", "credentials")], {})
	v == {{"stop_reason": "FORBIDDEN_CATEGORY", "rule": "C19-FORBID", "detail": "credentials_in_key"}}
}

test_c19_forbid_any_contract_with_a_write if {
	inp := {"operation": "WRITE", "contract": "agent", "texts": {"text": "t"}, "facts": {"findings": [_f("text", "health")]}}
	count(forbidden.violations) == 1 with input as inp
		with data.memgate.operations.agent as {"WRITE": {"success": "SUCCESS_STORED", "write": true}}
}

test_c19_forbid_not_on_reads if {
	inp := {"operation": "READ", "contract": "governed", "facts": {"findings": [_f("value", "health")]}}
	count(forbidden.violations) == 0 with input as inp
}

test_near_miss_software_context_without_a_person if {
	findings := [_f("value", "health"), _f("value", "context:software")]
	count(forbidden.violations) == 0 with input as _write(findings, {})
}

test_near_miss_does_not_clear_a_person if {
	findings := [_f("value", "health"), _f("value", "context:software"), _f("value", "context:personal")]
	count(forbidden.violations) == 1 with input as _write(findings, {})
}

test_c19_forbid_a_condition_in_a_text_about_a_pet_is_the_animals[note] if {
	some note, c in {
		"C19-FORBID health term beside a pet, owner named": {"findings": [_f("value", "health"), _f("value", "context:animal"), _f("value", "context:personal")], "n": 0},
		"C19-FORBID health topic beside a pet": {"findings": [_f("value", "topic:health"), _f("value", "context:animal"), _f("value", "context:personal")], "n": 0},
		"C19-FORBID other classes beside a pet still count": {"findings": [_f("value", "criminal_legal"), _f("value", "context:animal")], "n": 1},
		"C19-FORBID a pet in another field clears nothing": {"findings": [_f("value", "health"), _f("key", "context:animal")], "n": 1},
	}
	count(forbidden.violations) == c.n with input as _write(c.findings, {})
}

test_c19_forbid_a_topic_beside_an_occupation_names_the_job[note] if {
	some note, c in {
		"C19-FORBID health topic beside a job word": {"findings": [_f("value", "topic:health"), _f("value", "context:occupation"), _f("value", "context:personal")], "n": 0},
		"C19-FORBID legal topic beside a job word": {"findings": [_f("value", "topic:criminal_legal"), _f("value", "context:occupation"), _f("value", "context:personal")], "n": 0},
		"C19-FORBID a health term beside a job word still counts": {"findings": [_f("value", "health"), _f("value", "context:occupation"), _f("value", "context:personal")], "n": 1},
		"C19-FORBID an identity topic beside a job word still counts": {"findings": [_f("value", "topic:identity"), _f("value", "context:occupation"), _f("value", "context:personal")], "n": 1},
	}
	count(forbidden.violations) == c.n with input as _write(c.findings, {})
}

test_c19_forbid_a_faith_holiday_and_a_work_clear_topics_only[note] if {
	some note, c in {
		"C19-FORBID identity topic beside a faith holiday": {"findings": [_f("value", "topic:identity"), _f("value", "context:faith_holiday"), _f("value", "context:personal")], "n": 0},
		"C19-FORBID an identity term beside a faith holiday still counts": {"findings": [_f("value", "identity"), _f("value", "context:faith_holiday"), _f("value", "context:personal")], "n": 1},
		"C19-FORBID a health topic beside a faith holiday still counts": {"findings": [_f("value", "topic:health"), _f("value", "context:faith_holiday"), _f("value", "context:personal")], "n": 1},
		"C19-FORBID legal topic in a work's subject": {"findings": [_f("value", "topic:criminal_legal"), _f("value", "context:media"), _f("value", "context:personal")], "n": 0},
		"C19-FORBID a health term in a work's subject still counts": {"findings": [_f("value", "health"), _f("value", "context:media"), _f("value", "context:personal")], "n": 1},
	}
	count(forbidden.violations) == c.n with input as _write(c.findings, {})
}

test_near_miss_never_clears_credentials if {
	findings := [_f("value", "credentials"), _f("value", "context:software")]
	count(forbidden.violations) == 1 with input as _write(findings, {})
}

test_c19_cat_category_bans_apply_in_their_category_only[note] if {
	some note, c in {
		"C19-CAT REMINDER bans personal schedule": {"cat": "REMINDER", "class": "ban:REMINDER:personal_schedule", "n": 1},
		"C19-CAT PROJECT_CONFIG bans credentials by name": {"cat": "PROJECT_CONFIG", "class": "ban:PROJECT_CONFIG:credentials", "n": 1},
		"C19-CAT a REMINDER ban does not apply to PREFERENCE": {"cat": "PREFERENCE", "class": "ban:REMINDER:health", "n": 0},
	}
	v := forbidden.violations with input as _write([_f("value", c.class)], {"item": {"category": c.cat}})
	count(v) == c.n
}

test_c19_cat_a_pets_health_in_a_reminder_is_the_animals[note] if {
	some note, c in {
		"C19-CAT a vaccination reminder for cats and dogs": {"class": "ban:REMINDER:health", "n": 0},
		"C19-CAT a personal schedule beside a pet still counts": {"class": "ban:REMINDER:personal_schedule", "n": 1},
	}
	findings := [_f("value", c.class), _f("value", "context:animal")]
	v := forbidden.violations with input as _write(findings, {"item": {"category": "REMINDER"}})
	count(v) == c.n
}

test_c19_tool_output_origin_is_forbidden if {
	v := forbidden.violations with input as _write([], {"item": {"category": "PREFERENCE", "origin": "TOOL_OUTPUT"}})
	v == {{"stop_reason": "FORBIDDEN_CATEGORY", "rule": "C19-TOOL", "detail": "tool_output_origin"}}
}

test_c19_forbid_topic_words_count_only_about_a_person[note] if {
	some note, c in {
		"C19-FORBID topic about the user": {"findings": [_f("value", "topic:criminal_legal"), _f("value", "context:personal")], "n": 1},
		"C19-FORBID topic without a person": {"findings": [_f("value", "topic:criminal_legal")], "n": 0},
		"C19-FORBID topic about a person but in software talk": {"findings": [_f("value", "topic:health"), _f("value", "context:personal"), _f("value", "context:software")], "n": 0},
		"C19-FORBID person in another field": {"findings": [_f("value", "topic:location"), _f("key", "context:personal")], "n": 0},
	}
	count(forbidden.violations) == c.n with input as _write(c.findings, {})
}

_sensed(class, term, facts) := {"field": "value", "class": class, "label": "test", "term": term, "facts": facts}

test_c19_forbid_senses_clear_innocent_readings_only[note] if {
	some note, c in {
		"C19-FORBID date modifying a noun (the date field) is innocent": {"f": _sensed("intimate", "date", ["pos:NOUN", "determined", "modifies_noun"]), "n": 0},
		"C19-FORBID date owned by a person (our first date) counts": {"f": _sensed("intimate", "date", ["pos:NOUN", "possessed_by_person", "modifies_noun"]), "n": 1},
		"C19-FORBID diagnosing a thing is innocent": {"f": _sensed("health", "diagnose", ["pos:VERB", "object_thing"]), "n": 0},
		"C19-FORBID a person diagnosed counts": {"f": _sensed("health", "diagnose", ["pos:VERB", "patient_person"]), "n": 1},
		"C19-FORBID a sense word with no innocent fact counts": {"f": _sensed("health", "diagnose", ["pos:NOUN"]), "n": 1},
		"C19-FORBID an unknown sense counts": {"f": _sensed("health", "no_such_sense", ["object_thing"]), "n": 1},
		"C19-FORBID a sense limited to other classes counts": {"f": _sensed("health", "self_report", ["first_person_only"]), "n": 1},
		"C19-FORBID a self-report about oneself is innocent": {"f": _sensed("profiling", "self_report", ["first_person_only"]), "n": 0},
	}
	count(forbidden.violations) == c.n with input as _write([c.f], {})
}

test_c19_forbid_senses_apply_to_topic_words_too if {
	person := _f("value", "context:personal")
	count(forbidden.violations) == 0 with input as _write([_sensed("topic:profiling", "self_report", ["first_person_only"]), person], {})
	count(forbidden.violations) == 1 with input as _write([_sensed("topic:profiling", "self_report", ["person_after"]), person], {})
}

test_c19_forbid_senses_are_well_formed_data if {
	every _, sense in data.memgate.forbidden.senses {
		regex.is_valid(sense.forms)
		count(sense.innocent) > 0
	}
}

# Issue 22 item 5: an identifier split across fields is found on their concatenation and
# named by the fields it spans; it maps to the same stop reason as in one field.
test_c19_forbid_across_fields_same_stop_reason if {
	v := forbidden.violations with input as _write([_f("key+value", "biometrics_ids")], {})
	v == {{"stop_reason": "FORBIDDEN_CATEGORY", "rule": "C19-FORBID", "detail": "biometrics_ids_in_key+value"}}
}

test_c19_forbid_across_fields_takes_the_contexts_of_its_fields if {
	findings := [_f("key+value", "biometrics_ids"), _f("key", "context:test_data")]
	count(forbidden.violations) == 0 with input as _write(findings, {})
}

test_c19_forbid_across_fields_a_person_in_either_field_still_counts if {
	findings := [_f("key+value", "biometrics_ids"), _f("key", "context:test_data"), _f("value", "context:personal")]
	count(forbidden.violations) == 1 with input as _write(findings, {})
}

test_c19_forbid_contexts_of_one_field_do_not_clear_another if {
	findings := [_f("value", "biometrics_ids"), _f("key", "context:test_data")]
	count(forbidden.violations) == 1 with input as _write(findings, {})
}

# Issue 21 item 3: a text in a language without a lexicon is judged like any other by default
# (the detector ran every language's lexicon over it); refuse_uncovered refuses it outright.
test_uncovered_language_judged_by_default if {
	count(forbidden.violations) == 0 with input as _write([_f("value", "language:el")], {})
}

test_uncovered_language_refused_when_the_policy_says_so if {
	v := forbidden.violations with input as _write([_f("value", "language:el")], {})
		with data.memgate.forbidden.language_policy.refuse_uncovered as true
	v == {{"stop_reason": "FORBIDDEN_CATEGORY", "rule": "C19-FORBID", "detail": "uncovered_language_in_value"}}
}

test_covered_languages_never_refused_for_their_language[lang] if {
	some lang in ["en", "de", "pl", "sv", "tr", "ja", "und"]
	count(forbidden.violations) == 0 with input as _write([_f("value", concat(":", ["language", lang]))], {})
		with data.memgate.forbidden.language_policy.refuse_uncovered as true
}

# A topic word of another language's lexicon counts about a person, as an English one does.
test_language_topic_about_a_person_is_refused if {
	findings := [
		{"field": "value", "class": "topic:identity", "label": "topic:de:identity"},
		{"field": "value", "class": "context:personal", "label": "context:de:personal"},
	]
	v := forbidden.violations with input as _write(findings, {})
	v == {{"stop_reason": "FORBIDDEN_CATEGORY", "rule": "C19-FORBID", "detail": "identity_in_value"}}
}

test_c19_forbid_practising_an_observance_about_a_person if {
	findings := [_f("value", "context:observing"), _f("value", "context:observance"), _f("value", "context:personal")]
	v := forbidden.violations with input as _write(findings, {})
	v == {{"stop_reason": "FORBIDDEN_CATEGORY", "rule": "C19-FORBID", "detail": "identity_in_value"}}
}

test_c19_forbid_an_observance_without_practice_or_person_is_no_fact if {
	count(forbidden.violations) == 0 with input as _write([_f("value", "context:observance"), _f("value", "context:personal")], {})
	count(forbidden.violations) == 0 with input as _write([_f("value", "context:observing"), _f("value", "context:observance")], {})
	software := [_f("value", "context:observing"), _f("value", "context:observance"), _f("value", "context:personal"), _f("value", "context:software")]
	count(forbidden.violations) == 0 with input as _write(software, {})
}
