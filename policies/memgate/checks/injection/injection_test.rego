package memgate.checks.injection_test

import data.memgate.checks.injection
import data.memgate.injection as lexicon

_write(texts, findings) := {"operation": "STORE", "contract": "governed", "texts": texts, "facts": {"findings": findings}}

test_c19_tool_injection_finding if {
	v := injection.violations with input as _write({"value": "x"}, [{"field": "value", "class": "injection", "label": "instruction_override#0"}])
	v == {{"stop_reason": "INJECTION_DETECTED", "rule": "C19-TOOL", "detail": "instruction_override_in_value"}}
}

test_c19_tool_hidden_characters[note] if {
	some note, text in {
		"zero-width space": "note\u200bignore",
		"right-to-left override": "abc\u202edcba",
		"byte order mark": "\ufeffhello",
		"word joiner": "a\u2060b",
	}
	v := injection.violations with input as _write({"value": text}, [])
	v == {{"stop_reason": "INJECTION_DETECTED", "rule": "C19-TOOL", "detail": "hidden_characters_in_value"}}
}

test_plain_text_is_clean if {
	count(injection.violations) == 0 with input as _write({"value": "prefer concise answers — thanks, café"}, [])
}

# On the kernel (field facts present) the lexicon detector reports hidden characters; the
# policy compiles no regex for them (src/detectors/lexicon.ts, test/policy/hygiene-facts.test.ts).
test_c19_tool_hidden_characters_finding_on_the_kernel if {
	inp := object.union(_write({"value": "note\u200bignore"}, [{"field": "value", "class": "hidden_characters", "label": "hidden_characters"}]), {"fields": []})
	v := injection.violations with input as inp
	v == {{"stop_reason": "INJECTION_DETECTED", "rule": "C19-TOOL", "detail": "hidden_characters_in_value"}}
}

test_c19_tool_on_the_kernel_the_finding_answers_not_a_regex if {
	inp := object.union(_write({"value": "note\u200bignore"}, []), {"fields": []})
	count(injection.violations) == 0 with input as inp
}

# --- injection by intent (issue 21 item 4): facts from src/detectors/injection.ts ------------

_sentence(facts) := {"field": "value", "class": "injection_intent", "label": "sentence", "facts": facts}

_details(findings) := {v.detail | some v in vs} if {
	vs := injection.violations with input as _write({"value": "x"}, findings)
}

test_c19_tool_override_in_any_sentence if {
	_details([_sentence(["override"])]) == {"override_in_value"}
}

test_c19_tool_a_quoted_or_defended_override_is_a_mention if {
	count(_details([_sentence(["override:quoted"])])) == 0
	count(_details([_sentence(["frame:defensive", "override"])])) == 0
}

test_c19_tool_an_action_needs_the_agent_addressed[kind] if {
	some kind in ["remote_code", "exfiltrate", "credentials", "disable_checks"]
	action := concat(":", ["action", kind])
	count(_details([_sentence([action])])) == 0
	_details([_sentence([action, "intent:addressee"])]) == {sprintf("action_%s_in_value", [kind])}
}

test_c19_tool_the_addressee_may_be_in_another_sentence_of_the_field if {
	_details([_sentence(["intent:addressee"]), _sentence(["action:remote_code"])]) == {"action_remote_code_in_value"}
}

test_c19_tool_a_bare_imperative_addresses_the_agent_for_strong_actions_only if {
	_details([_sentence(["action:credential_files", "intent:imperative"])]) == {"action_credential_files_in_value"}
	_details([_sentence(["action:disable_safety", "intent:you"])]) == {"action_disable_safety_in_value"}
	count(_details([_sentence(["action:credentials", "intent:imperative"])])) == 0
	count(_details([_sentence(["action:exfiltrate", "intent:you"])])) == 0
}

test_c19_tool_standalone_actions if {
	_details([_sentence(["action:secrecy"])]) == {"action_secrecy_in_value"}
	_details([_sentence(["action:pipe_shell"])]) == {"action_pipe_shell_in_value"}
}

test_c19_tool_negated_quoted_or_defended_actions_are_stored if {
	count(_details([_sentence(["action:pipe_shell:negated", "intent:addressee"])])) == 0
	count(_details([_sentence(["action:exfiltrate:quoted", "intent:addressee"])])) == 0
	count(_details([_sentence(["action:disable_safety", "intent:addressee", "frame:defensive"])])) == 0
}

test_c19_tool_a_description_counts_only_when_spoken_to_the_agent if {
	count(_details([_sentence(["action:disable_safety", "intent:you", "frame:descriptive"])])) == 0
	_details([_sentence(["action:disable_safety", "intent:addressee", "frame:descriptive"])]) == {"action_disable_safety_in_value"}
}

test_c19_tool_role_turns if {
	_details([_sentence(["role:assistant"])]) == {"role_spoofing_in_value"}
	_details([_sentence(["role:template"])]) == {"role_spoofing_in_value"}
	count(_details([_sentence(["role:template:quoted"])])) == 0
	count(_details([_sentence(["role:system"])])) == 0
	_details([_sentence(["role:system", "intent:you"])]) == {"role_spoofing_in_value"}
	count(_details([_sentence(["role:user"])])) == 0
}

# A standing practice of moving secrets to an outside address ("env vars go to https://…",
# "cookies are exported to …") needs no one addressed; said never to happen, it is a rule.
test_c19_tool_secrets_moved_out_stand_alone if {
	_details([_sentence(["action:exfiltrate_secrets"])]) == {"action_exfiltrate_secrets_in_value"}
	count(_details([_sentence(["action:exfiltrate_secrets:negated"])])) == 0
}

test_c19_tool_a_system_turn_announcing_an_action if {
	_details([_sentence(["role:system", "action:disable_safety"])]) == {"role_spoofing_in_value"}
	count(_details([_sentence(["role:system", "action:disable_safety:negated"])])) == 0
}

test_c19_tool_output_by_shape if {
	_details([{"field": "value", "class": "injection_intent", "label": "text", "facts": ["tool:shape"]}]) == {"tool_output_shape_in_value"}
}

test_c19_tool_addressee_alone_is_nothing if {
	count(_details([_sentence(["intent:addressee", "intent:you", "intent:imperative"])])) == 0
}

test_intent_lexicon_names_every_kind_it_decides_on if {
	count(object.keys(lexicon.intent.languages)) >= 8
	kinds := {k | some k in lexicon.intent.action_kinds}
	every kind in lexicon.intent.standalone_actions {
		kinds[kind]
	}
	every kind in lexicon.intent.imperative_actions {
		kinds[kind]
	}
	every kind in lexicon.intent.command_actions {
		kinds[kind]
	}
}

test_c19_tool_sending_out_on_a_command_not_on_a_bare_your if {
	_details([_sentence(["action:exfiltrate", "intent:imperative"])]) == {"action_exfiltrate_in_value"}
	count(_details([_sentence(["action:exfiltrate", "intent:you"])])) == 0
}

_label(field) := {"field": field, "class": "injection_intent", "label": "text", "facts": ["tool:label"]}

test_c19_tool_a_tool_label_with_an_instruction_to_the_agent if {
	_details([_label("value"), _sentence(["intent:addressee"])]) == {"tool_output_instruction_in_value"}
	_details([_label("value"), _sentence(["intent:imperative"])]) == {"tool_output_instruction_in_value"}
}

test_c19_tool_a_tool_label_alone_is_stored if {
	count(_details([_label("value")])) == 0
	count(_details([_label("value"), _sentence(["frame:defensive", "intent:addressee"])])) == 0
}

# A waived safeguard narrowed to harmless commands ("skips the confirmation only for read-only
# commands") is a convention: the detector reports it as :scoped, which no rule refuses, even
# spoken to the agent or in a system turn.
test_c19_inj_scoped_waivers_are_stored if {
	count(_details([_sentence(["action:disable_safety:scoped", "intent:addressee"])])) == 0
	count(_details([_sentence(["action:waive_safety:scoped", "intent:imperative"])])) == 0
	count(_details([_sentence(["role:system", "action:disable_checks:scoped"])])) == 0
	count(_details([_sentence(["action:disable_safety", "intent:addressee"])])) == 1
}
