# SPEC D3, D5, issue 11 §5: no existence oracle. For a subject the token does not hold, the
# answer never depends on whether the target exists: the same stop reason, the same
# explanations, whatever the target, the erasure lookup, the proposal or the content.
package memgate.main.existence_test

import data.memgate.main

_user := {"id": "user-1", "tenant": "t1", "subjects": ["alice"], "roles": ["user"], "agent_type": null, "job": null}

_agent := {"id": "agent-1", "tenant": "t1", "subjects": ["alice"], "roles": ["agent"], "agent_type": "coder", "job": null}

_adapter := {"id": "adapter-1", "tenant": "t1", "subjects": ["alice"], "roles": ["adapter"], "agent_type": null, "job": null}

_now := 1780272000000 # 2026-06-01T00:00:00Z

_live := {"found": true, "status": "active", "version": 1, "expires_at_ms": 1798761600000}

_missing := {"found": false}

_base(contract, operation, principal) := {
	"contract": contract, "operation": operation, "principal": principal, "subject_id": "alice",
	"now_ms": _now, "integrity": {"chain_broken": false, "broken_seq": null},
	"texts": {}, "facts": {"findings": []},
}

_item := {
	"category": "PREFERENCE", "key": "tone", "value": "concise answers", "source_kind": "USER_EXPLICIT",
	"ttl_class": "LONG", "origin": "USER", "consent": {"explicit": true},
}

# Each case: the request, what differs between a target that exists and one that does not,
# and the one answer a foreign subject gets either way. `control`: for the token's own
# subject the same two inputs answer differently (the inputs do reach the target checks).
_cases := {
	"D3 D5 C19-STOP governed READ (read, targeted)": {
		"in": object.union(_base("governed", "READ", _agent), {"item": {"memory_id": "mem_1"}, "settings": {"tenant": null, "subject": null}}),
		"found": {"target": _live}, "missing": {"target": _missing},
		"want": "NOT_FOUND", "control": true,
	},
	"D3 D5 C19-STOP governed DELETE (targeted, with a reason)": {
		"in": object.union(_base("governed", "DELETE", _agent), {"item": {"memory_id": "mem_1"}, "reason": "outdated", "texts": {"reason": "outdated"}}),
		"found": {"target": _live}, "missing": {"target": _missing},
		"want": "NOT_FOUND", "control": true,
	},
	"D3 D5 C19-OPS governed UPDATE (write, targeted, expected version)": {
		"in": object.union(_base("governed", "UPDATE", _agent), {
			"item": object.union(_item, {"memory_id": "mem_1", "expected_version": 1}),
			"texts": {"key": "tone", "value": "concise answers"},
			"settings": {"tenant": null, "subject": null}, "counts": {"items": 1, "writes_in_window": 1},
		}),
		"found": {"target": _live}, "missing": {"target": _missing},
		"want": "POLICY_DISABLED", "control": true,
	},
	"D3 D5 C19-FORBID governed STORE (write; a forbidden finding does not show either)": {
		"in": object.union(_base("governed", "STORE", _agent), {
			"item": _item, "texts": {"key": "tone", "value": "concise answers"},
			"settings": {"tenant": null, "subject": null}, "counts": {"items": 1, "writes_in_window": 1},
		}),
		"found": {"facts": {"findings": [{"field": "value", "class": "credentials", "label": "secrets:api_key"}]}},
		"missing": {"facts": {"findings": []}},
		"want": "POLICY_DISABLED", "control": true,
	},
	"D1 D3 D5 MP-FORGET audit ERASE_MEMORY (erasure found or not)": {
		"in": object.union(_base("audit", "ERASE_MEMORY", _user), {"item": {"memory_id": "mem_1"}, "reason": "asked to", "texts": {"reason": "asked to"}}),
		"found": {"erasure": {"reason": "asked to", "found": true, "erased": false}},
		"missing": {"erasure": {"reason": "asked to", "found": false, "erased": false}},
		"want": "NOT_FOUND", "control": false,
	},
	"D3 D5 P54-A ledger APPROVE (write, targeted proposal)": {
		"in": object.union(_base("ledger", "APPROVE", _user), {"approval": {"final_text": "I plan on Sundays.", "kind": "PREFERENCE"}, "texts": {"final_text": "I plan on Sundays."}}),
		"found": {"target": {"found": true, "status": "active"}}, "missing": {"target": _missing},
		"want": "POLICY_DISABLED", "control": false,
	},
	"D3 D5 P54-E ledger FORGET (targeted item)": {
		"in": _base("ledger", "FORGET", _user),
		"found": {"target": {"found": true, "status": "active"}}, "missing": {"target": _missing},
		"want": "NOT_FOUND", "control": true,
	},
	"D3 D5 SG-ISOLATION companion FORGET_FACT (targeted fact)": {
		"in": _base("companion", "FORGET_FACT", _adapter),
		"found": {"target": _live}, "missing": {"target": _missing},
		"want": "NOT_FOUND", "control": true,
	},
	"D3 D5 SG-ISOLATION companion CONFIRM_PROPOSAL (targeted proposal)": {
		"in": _base("companion", "CONFIRM_PROPOSAL", _user),
		"found": {"target": _live}, "missing": {"target": _missing},
		"want": "NOT_FOUND", "control": false,
	},
	"D3 D5 SG-APPEND companion ADD_FACT (write; the superseded fact found or not)": {
		"in": object.union(_base("companion", "ADD_FACT", _adapter), {
			"fact": {"type": "USER_FACT", "text": "likes tea", "summary": "likes tea", "confidence": 0.9, "source": "llm_extraction"},
			"origin": "adapter", "grounding": {"score": 0.9}, "proposal": {"found": false},
			"privacy": {"memory_enabled": true, "learn_patterns": true, "share_with": []},
		}),
		"found": {"supersedes": {"requested": true, "found": true, "same_content": true}},
		"missing": {"supersedes": {"requested": true, "found": false}},
		"want": "POLICY_DISABLED", "control": false,
	},
	"D3 D5 IF1-VALID agent UPDATE (write, targeted memory)": {
		"in": object.union(_base("agent", "UPDATE", _agent), {"agent": {"schema_issues": [], "blank": [], "refs": [], "sizes": []}}),
		"found": {"target": _live}, "missing": {"target": _missing},
		"want": "POLICY_DISABLED", "control": true,
	},
}

_foreign(c, part) := object.union_n([c.in, part, {"subject_id": "bob"}])

test_foreign_subject_answer_does_not_depend_on_the_target[note] if {
	some note, c in _cases
	found := main.decision with input as _foreign(c, c.found)
	missing := main.decision with input as _foreign(c, c.missing)
	found == missing
	found.stop_reason == c.want
	found.explanations == ["AUTHZ-SUBJECT: subject_not_in_token"]
	found.outcome == "refuse"
}

_controls[note] := c if {
	some note, c in _cases
	c.control
}

test_own_subject_answer_does_depend_on_the_target[note] if {
	some note, c in _controls
	found := main.decision with input as object.union(c.in, c.found)
	missing := main.decision with input as object.union(c.in, c.missing)
	found != missing
}

# Whatever else the request says (an id that does not exist, a live target, forbidden content):
# the token's role and subject are all that answer.
test_d5_foreign_subject_answer_is_authz_only_even_with_a_wrong_role if {
	c := _cases["D3 D5 C19-STOP governed READ (read, targeted)"]
	auditor := object.union(_agent, {"roles": ["auditor"]})
	found := main.decision with input as object.union(_foreign(c, c.found), {"principal": auditor})
	missing := main.decision with input as object.union(_foreign(c, c.missing), {"principal": auditor})
	found == missing
	found.stop_reason == "POLICY_DISABLED"
	found.explanations == ["AUTHZ-ROLE: role_not_permitted"]
}

# C19-FAIL an unknown operation fails closed for a foreign subject too.
test_c19_fail_unknown_operation_for_a_foreign_subject if {
	d := main.decision with input as object.union(_base("governed", "DROP", _agent), {"subject_id": "bob"})
	d.stop_reason == "INTERNAL_INCONSISTENCY"
	"C19-FAIL: unknown_operation" in d.explanations
}

# An admin acts for any subject of its own tenant (seed 002 owner override): it is judged on the target.
test_d5_admin_of_the_tenant_is_judged_on_the_target if {
	c := _cases["D3 D5 C19-STOP governed READ (read, targeted)"]
	admin := object.union(_agent, {"roles": ["admin"], "subjects": []})
	found := main.decision with input as object.union(_foreign(c, c.found), {"principal": admin})
	found.stop_reason == "SUCCESS_READ"
	missing := main.decision with input as object.union(_foreign(c, c.missing), {"principal": admin})
	missing.stop_reason == "NOT_FOUND"
}
