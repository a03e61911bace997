# METADATA
# description: |
#   P54-C the final-text validator: the text about to be stored in the ledger carries no
#   identity-locking phrasing, no clinical or diagnostic language and no authoritative
#   framing. The phrases and patterns are data (memgate.ledger.validator); a refusal names
#   the group and the rule that matched, never the text.
package memgate.checks.ledger_text

import data.memgate.ledger

_final_text := _normalized(input.approval.final_text) if {
	input.contract == "ledger"
	input.operation == "APPROVE"
}

# Lower case, typographic apostrophes and dashes folded (patterns match runs of \s themselves;
# the wasm host has no regex.replace).
_normalized(text) := replace(replace(replace(lower(text), "’", "'"), "‘", "'"), "–", "-")

violations contains {"stop_reason": "FORBIDDEN_CATEGORY", "rule": "P54-C", "detail": sprintf("%s:%s", [group, rule.id])} if {
	some group, rules in ledger.validator
	some rule in rules
	regex.match(rule.pattern, _final_text)
	not _excepted(rule, _final_text)
}

_excepted(rule, text) if regex.match(rule.unless, text)
