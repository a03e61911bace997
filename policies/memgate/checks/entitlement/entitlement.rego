# METADATA
# description: |
#   C19-POLICY: memory switched off for the tenant or the subject answers POLICY_DISABLED.
#   C19-CAP: items per subject and writes per subject per window answer ENTITLEMENT_CAP
#   when reached. Defaults are policy data (data.memgate.entitlements); a tenant's and then
#   a subject's settings (input.settings, written by setMemorySettings) override them.
#   Counts arrive in input.counts, read by the service from counter documents.
package memgate.checks.entitlement

import data.memgate.entitlements

_governed if input.contract == "governed"

_tenant_data := object.get(entitlements.tenants, input.principal.tenant, {})

_layers := [
	entitlements.defaults,
	_tenant_data,
	_present(object.get(object.get(input, "settings", {}), "tenant", {})),
	_present(object.get(object.get(input, "settings", {}), "subject", {})),
]

# A null or absent setting does not override the layer below it.
_present(layer) := {k: v | some k, v in layer; v != null} if is_object(layer)

_present(layer) := {} if not is_object(layer)

effective[name] := value if {
	some name, _ in entitlements.defaults
	values := [v | some layer in _layers; v := object.get(layer, name, null); v != null]
	value := values[count(values) - 1]
}

violations contains {"stop_reason": "POLICY_DISABLED", "rule": "C19-POLICY", "detail": "memory_disabled"} if {
	_governed
	input.operation in entitlements.disable_applies_to
	effective.enabled == false
}

violations contains {"stop_reason": "ENTITLEMENT_CAP", "rule": "C19-CAP", "detail": "max_items_per_subject_reached"} if {
	_governed
	input.operation in entitlements.item_ops
	input.counts.items >= effective.max_items_per_subject
}

violations contains {"stop_reason": "ENTITLEMENT_CAP", "rule": "C19-CAP", "detail": "max_writes_per_window_reached"} if {
	_governed
	input.operation in entitlements.write_ops
	input.counts.writes_in_window >= effective.max_writes_per_window
}
