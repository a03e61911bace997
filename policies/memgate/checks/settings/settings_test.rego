package memgate.checks.settings_test

import data.memgate.checks.settings

_set(change) := {"operation": "SET_SETTINGS", "contract": "governed", "settings_change": change}

test_c19_policy_settings_values[note] if {
	some note, c in {
		"C19-POLICY nothing given": {"change": {"scope": "tenant"}, "want": {"SCHEMA_INVALID"}},
		"C19-POLICY enabled must be boolean": {"change": {"enabled": "no"}, "want": {"SCHEMA_INVALID"}},
		"C19-CAP negative cap": {"change": {"max_items_per_subject": -1}, "want": {"BOUNDS_EXCEEDED"}},
		"C19-CAP fractional cap": {"change": {"max_writes_per_window": 1.5}, "want": {"SCHEMA_INVALID"}},
		"C19-CAP cap over the limit": {"change": {"max_writes_per_window": 1000001}, "want": {"BOUNDS_EXCEEDED"}},
		"C19-CAP zero is a valid cap": {"change": {"max_items_per_subject": 0}, "want": set()},
		"C19-POLICY switch off": {"change": {"enabled": false}, "want": set()},
	}
	{v.stop_reason | some v in settings.violations with input as _set(c.change)} == c.want
}
