# METADATA
# description: |
#   The free text of a request, as every content check sees it. Any operation whose spec
#   says `write: true` (or `texts: true`, for a DELETE reason) is checked, whatever its
#   contract: services put every free-text field in `input.texts` and the detector
#   output in `input.facts` (see the brief's convention).
package memgate.lib.content

import data.memgate.lib.operation

default checked := false

# The kernel (src/kernel/) reports a fact for every declared field in input.fields, and runs
# every detector over every text: control characters and ill-formed Unicode are then field
# facts (checks/fields) and hidden characters a finding of the lexicon detector, so no check
# compiles a regex per evaluation for them. A service not yet on the kernel sends no field
# facts: for it the checks still match the texts here.
default kernel := false

kernel if is_array(input.fields)

checked if operation.is_write

checked if operation.spec.texts

# Only strings: a non-string value is the schema check's business, never a crash here.
texts[field] := text if {
	checked
	some field, text in object.get(input, "texts", {})
	is_string(text)
	text != ""
}

findings contains f if {
	checked
	some f in object.get(object.get(input, "facts", {}), "findings", [])
}
