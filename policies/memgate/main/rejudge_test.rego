package memgate.main.rejudge_test

import data.memgate.main

# Issue 13 item 5: the REJUDGE operation of every contract judges stored text with the
# content checks a write meets; the re-audit quarantines on `refuse`.

_job := {"id": "memgate-reaudit", "tenant": "t1", "subjects": ["alice"], "roles": ["job"]}

_rejudge(contract, texts, findings) := {
	"operation": "REJUDGE", "contract": contract, "principal": _job, "subject_id": "alice",
	"integrity": {"chain_broken": false, "broken_seq": null},
	"fields": [], "texts": texts, "facts": {"findings": findings},
}

test_mp_break_rejudge_allows_clean_text[note] if {
	some note, contract in {"C19-FORBID governed": "governed", "C19-FORBID agent": "agent", "C19-FORBID companion": "companion", "C19-FORBID ledger": "ledger"}
	d := main.decision with input as _rejudge(contract, {"text": "prefers concise answers"}, [])
	d.outcome == "allow"
	d.stop_reason == "SUCCESS_READ"
}

test_c19_forbid_rejudge_refuses_a_forbidden_finding[note] if {
	some note, contract in {"C19-FORBID governed": "governed", "C19-FORBID agent": "agent", "C19-FORBID companion": "companion", "C19-FORBID ledger": "ledger"}
	finding := {"field": "value", "class": "credentials", "label": "credentials#9"}
	d := main.decision with input as _rejudge(contract, {"value": "x"}, [finding])
	d.outcome == "refuse"
	d.stop_reason == "FORBIDDEN_CATEGORY"
	d.explanations == ["C19-FORBID: credentials_in_value"]
}

test_c19_tool_rejudge_refuses_injection if {
	finding := {"field": "text", "class": "injection", "label": "instruction_override#1"}
	d := main.decision with input as _rejudge("companion", {"text": "x"}, [finding])
	d.outcome == "refuse"
	d.stop_reason == "INJECTION_DETECTED"
}

test_p54_c_rejudge_meets_the_final_text_validator if {
	finding := {"field": "finalText", "class": "ledger:validator", "label": "clinical:diagnosis"}
	d := main.decision with input as _rejudge("ledger", {"finalText": "x"}, [finding])
	d.outcome == "refuse"
	d.explanations == ["P54-C: clinical:diagnosis"]
}

# A broken chain must not quarantine everything: re-judging is allowed while broken.
test_mp_break_rejudge_is_not_refused_while_the_chain_is_broken if {
	d := main.decision with input as object.union(_rejudge("governed", {"value": "x"}, []), {"integrity": {"chain_broken": true, "broken_seq": 3}})
	d.outcome == "allow"
}

test_authz_rejudge_is_the_job_role_only if {
	d := main.decision with input as object.union(_rejudge("governed", {"value": "x"}, []), {"principal": object.union(_job, {"roles": ["user"]})})
	d.stop_reason == "POLICY_DISABLED"
}

# Issue 13 item 5: the stored texts newly re-judged are named as their writes declared them:
# an agent update's rationale and evidence refs, a memory's evidence refs, a held companion
# proposal's text, a consolidated fact's justification, a governed item's or superseded
# version's key, value, source ref and consent evidence.
test_c19_forbid_rejudge_names_every_stored_field[field] if {
	some field, contract in {
		"updates.truth.rationale": "agent",
		"updates.utility.evidence_refs[0]": "agent",
		"memory.evidence_refs[1]": "agent",
		"text": "companion",
		"key": "governed",
		"source_ref": "governed",
		"consent.evidence_ref": "governed",
		"justification": "companion",
	}
	finding := {"field": field, "class": "credentials", "label": "credentials#9"}
	d := main.decision with input as _rejudge(contract, {field: "x"}, [finding])
	d.outcome == "refuse"
	d.stop_reason == "FORBIDDEN_CATEGORY"
	d.explanations == [sprintf("C19-FORBID: credentials_in_%s", [field])]
}

test_c19_forbid_rejudge_allows_clean_update_text if {
	d := main.decision with input as _rejudge("agent", {"updates.truth.rationale": "fixed on staging", "updates.truth.evidence_refs[0]": "pr:812"}, [])
	d.outcome == "allow"
}
