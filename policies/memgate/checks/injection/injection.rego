# METADATA
# description: |
#   C19-TOOL / INV-4: prompt-injection in any field of any write answers INJECTION_DETECTED:
#   instruction overrides, role or system-prompt spoofing and memory smuggling (findings of
#   class "injection", from the lexicon of data.memgate.injection), and hidden characters
#   (zero-width, bidi controls, tag characters) that can hide instructions from a reviewer.
package memgate.checks.injection

import data.memgate.injection
import data.memgate.lib.content

violations contains _violation(sprintf("%s_in_%s", [_kind(f.label), f.field])) if {
	some f in content.findings
	f.class == "injection"
}

# The lexicon detector matches data.memgate.injection.hidden_characters (compiled once per
# bundle, not once per evaluation) and reports a finding of class hidden_characters.
violations contains _violation(concat("", ["hidden_characters_in_", f.field])) if {
	some f in content.findings
	f.class == "hidden_characters"
}

# A service not yet on the kernel may not have run the detectors over every text.
violations contains _violation(concat("", ["hidden_characters_in_", field])) if {
	not content.kernel
	some field, text in content.texts
	regex.match(injection.hidden_characters, text)
}

# "instruction_override#3" -> "instruction_override"
_kind(label) := split(label, "#")[0]

_violation(detail) := {"stop_reason": "INJECTION_DETECTED", "rule": "C19-TOOL", "detail": detail}
