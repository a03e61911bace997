# METADATA
# description: |
#   The free text of a request, as every content check sees it. Any operation whose spec
#   says `write: true` (or `texts: true`, for a DELETE reason) is checked, whatever its
#   contract: services put every free-text field in `input.texts` and the detector
#   output in `input.facts` (see the brief's convention).
package memgate.lib.content

import data.memgate.lib.operation

default checked := false

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
