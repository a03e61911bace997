package memgate.checks.injection_test

import data.memgate.checks.injection

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
