package memgate.checks.schema_test

import data.memgate.checks.schema

test_c19_item_control_characters_in_any_contract[note] if {
	some note, c in {
		"C19-ITEM bell": {"text": "a\u0007b", "n": 1},
		"C19-ITEM carriage return": {"text": "a\rb", "n": 1},
		"C19-ITEM C1 control": {"text": "a\u0085b", "n": 1},
		"C19-ITEM tab and newline are fine": {"text": "a\tb\nc", "n": 0},
	}
	inp := {"operation": "WRITE", "contract": "agent", "subject_id": "s", "texts": {"text": c.text}}
	v := schema.violations with input as inp
	count(v) == c.n
}

test_tenant_scope_settings_need_no_subject if {
	inp := {"operation": "SET_SETTINGS", "contract": "governed", "subject_id": "", "settings_change": {"enabled": false}}
	count(schema.violations) == 0 with input as inp
}

# On the kernel every declared field reports its control characters as a fact (checks/fields):
# this check then compiles no regex.
test_c19_item_on_the_kernel_control_characters_are_field_facts if {
	inp := {"operation": "WRITE", "contract": "agent", "subject_id": "s", "texts": {"text": "a\u0007b"}, "fields": []}
	count(schema.violations) == 0 with input as inp
}
