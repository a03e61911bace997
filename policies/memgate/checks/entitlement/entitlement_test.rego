package memgate.checks.entitlement_test

import data.memgate.checks.entitlement

_in(op, settings, counts) := {
	"operation": op, "contract": "governed", "principal": {"tenant": "t1"},
	"settings": settings, "counts": counts,
}

_codes(inp) := {v.stop_reason | some v in entitlement.violations with input as inp}

test_c19_policy_tenant_or_subject_switch[note] if {
	some note, c in {
		"C19-POLICY tenant off": {"s": {"tenant": {"enabled": false}, "subject": null}, "want": {"POLICY_DISABLED"}},
		"C19-POLICY subject off": {"s": {"tenant": null, "subject": {"enabled": false}}, "want": {"POLICY_DISABLED"}},
		"C19-POLICY subject on overrides tenant off": {"s": {"tenant": {"enabled": false}, "subject": {"enabled": true}}, "want": set()},
		"C19-POLICY subject null keeps tenant off": {"s": {"tenant": {"enabled": false}, "subject": {"enabled": null}}, "want": {"POLICY_DISABLED"}},
	}
	_codes(_in("READ", c.s, {})) == c.want
}

test_c19_cap_defaults_and_overrides[note] if {
	some note, c in {
		"C19-CAP default items cap reached": {"s": {}, "counts": {"items": 1000, "writes_in_window": 0}, "want": {"ENTITLEMENT_CAP"}},
		"C19-CAP below the default": {"s": {}, "counts": {"items": 999, "writes_in_window": 99}, "want": set()},
		"C19-CAP default writes cap reached": {"s": {}, "counts": {"items": 0, "writes_in_window": 100}, "want": {"ENTITLEMENT_CAP"}},
		"C19-CAP tenant raises the cap": {"s": {"tenant": {"max_items_per_subject": 5000}}, "counts": {"items": 1000, "writes_in_window": 0}, "want": set()},
		"C19-CAP subject lowers it again": {"s": {"tenant": {"max_items_per_subject": 5000}, "subject": {"max_items_per_subject": 3}}, "counts": {"items": 3, "writes_in_window": 0}, "want": {"ENTITLEMENT_CAP"}},
	}
	_codes(_in("STORE", c.s, c.counts)) == c.want
}

test_c19_cap_policy_data_per_tenant if {
	codes := _codes(_in("STORE", {}, {"items": 10, "writes_in_window": 0})) with data.memgate.entitlements.tenants as {"t1": {"max_items_per_subject": 10}}
	codes == {"ENTITLEMENT_CAP"}
}

test_c19_cap_items_cap_does_not_block_update_or_delete if {
	_codes(_in("UPDATE", {}, {"items": 1000, "writes_in_window": 0})) == set()
	_codes(_in("DELETE", {}, {"items": 1000, "writes_in_window": 100})) == set()
}

test_settings_operation_is_never_disabled if {
	_codes(_in("SET_SETTINGS", {"tenant": {"enabled": false}}, {})) == set()
}
