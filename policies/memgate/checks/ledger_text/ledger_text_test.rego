package memgate.checks.ledger_text_test

import data.memgate.checks.ledger_text

_approve(text) := {"contract": "ledger", "operation": "APPROVE", "approval": {"final_text": text}}

_groups(text) := {split(v.detail, ":")[0] | some v in ledger_text.violations with input as _approve(text)}

test_p54_c_identity_locking[text] if {
	some text in ["You are a perfectionist.", "I'm the kind of person who gives up", "Always the type to overcommit", "You’re an introvert"]
	"identity_locking" in _groups(text)
}

test_p54_c_clinical[text] if {
	some text in ["My ADHD makes mornings hard", "I was diagnosed with insomnia", "I think I have social anxiety"]
	"clinical_language" in _groups(text)
}

test_p54_c_authoritative[text] if {
	some text in ["This proves I work best alone", "I definitely prefer email", "The data clearly shows I focus at night"]
	"authoritative_framing" in _groups(text)
}

test_p54_c_near_misses_pass[text] if {
	some text in [
		"I've noticed I focus better in the morning",
		"I prefer clearly labelled buttons",
		"I want to improve my Spanish",
		"I can't take calls after 6pm",
		"I like it when you're brief",
	]
	count(ledger_text.violations) == 0 with input as _approve(text)
}
