# METADATA
# description: |
#   IF1-VALID the agent interface of seed 001. TypeScript reports what it found in the
#   document (schema issues from ajv against the exact schemas, blank texts, links that
#   name no visible memory, sizes); this package decides. Details are
#   "#<json pointer>: <what to do>", so a developer sees every offending place.
package memgate.checks.agent

import data.memgate.checks.agent.agent_limits

_agent if input.contract == "agent"

# IF1-VALID first layer: every schema issue is one violation at its pointer.
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "IF1-VALID", "detail": _at(issue.pointer, issue.message)} if {
	_agent
	some issue in input.agent.schema_issues
}

# IF1-VALID semantic layer: text that must say something says something.
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "IF1-VALID", "detail": _at(pointer, "must contain non-whitespace text")} if {
	_agent
	some pointer in input.agent.blank
}

# IF1-VALID links, change targets and context problems name memories the caller can see.
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "IF1-VALID", "detail": _at(ref.pointer, msg)} if {
	_agent
	some ref in input.agent.refs
	not ref.found
	msg := "names no memory in this repository or the tenant's global space"
}

violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "IF1-VALID", "detail": _at(ref.pointer, msg)} if {
	_agent
	some ref in input.agent.refs
	ref.found
	count(ref.expected_kinds) > 0
	not ref.kind in ref.expected_kinds
	msg := sprintf("must name a memory of kind %s, but names one of kind \"%s\"", [concat(" or ", ref.expected_kinds), ref.kind])
}

# IF1-CHANGE only a change invalidates: change_targets on any other kind is a mistake.
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "IF1-VALID", "detail": _at("/memory/links/change_targets", msg)} if {
	_agent
	input.operation == "WRITE"
	input.agent.change_target_count > 0
	input.agent.kind != "change"
	msg := "only a memory of kind \"change\" may name change_targets; write the change as its own memory"
}

# Sizes beyond policy data are BOUNDS_EXCEEDED.
violations contains {"stop_reason": "BOUNDS_EXCEEDED", "rule": "IF1-VALID", "detail": _at(size.pointer, msg)} if {
	_agent
	some size in input.agent.sizes
	limit := agent_limits[size.bound]
	size.size > limit
	msg := sprintf("is %d long; at most %d allowed", [size.size, limit])
}

_at(pointer, message) := sprintf("#%s: %s", [pointer, message])
