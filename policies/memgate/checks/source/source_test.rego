package memgate.checks.source_test

import data.memgate.checks.consent
import data.memgate.checks.source

_store(item) := {"operation": "STORE", "contract": "governed", "item": object.union({"category": "PROJECT_CONFIG"}, item)}

_codes(item) := {v.stop_reason | some v in source.violations with input as _store(item)}

test_c19_src_table[note] if {
	some note, c in {
		"C19-SRC derived unverified": {"item": {"source_kind": "DERIVED_UNVERIFIED"}, "want": {"NO_SOURCE_DERIVED_FACT"}},
		"C19-SRC cited without ref": {"item": {"source_kind": "CITED_SOURCE", "source_ref": null}, "want": {"NO_SOURCE_DERIVED_FACT"}},
		"C19-SRC cited with prose": {"item": {"source_kind": "CITED_SOURCE", "source_ref": "see the design doc"}, "want": {"SCHEMA_INVALID"}},
		"C19-ITEM a source_ref over its bound is the bounds check's": {"item": {"source_kind": "CITED_SOURCE", "source_ref": concat("", array.concat(["doc:"], [x | some _ in numbers.range(1, 253); x := "7"]))}, "want": set()},
		"C19-SRC cited with ids": {"item": {"source_kind": "CITED_SOURCE", "source_ref": "doc:42,adr/0007"}, "want": set()},
		"C19-SRC cited not allowed in PREFERENCE": {"item": {"category": "PREFERENCE", "source_kind": "CITED_SOURCE", "source_ref": "doc:1"}, "want": {"SCHEMA_INVALID"}},
	}
	_codes(c.item) == c.want
}

test_c19_consent_user_explicit_needs_it[note] if {
	some note, c in {
		"C19-CONSENT missing": {"consent": null, "n": 1},
		"C19-CONSENT false": {"consent": {"explicit": false}, "n": 1},
		"C19-CONSENT true": {"consent": {"explicit": true}, "n": 0},
	}
	v := consent.violations with input as _store({"source_kind": "USER_EXPLICIT", "consent": c.consent})
	count(v) == c.n
}

test_c19_consent_not_for_system_known if {
	count(consent.violations) == 0 with input as _store({"source_kind": "SYSTEM_KNOWN"})
}
