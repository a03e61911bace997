# METADATA
# description: |
#   C19-CONSENT / SPEC D3a: a USER_EXPLICIT write must carry evidence that the person
#   asked for it (consent.explicit true); missing or false consent answers
#   MISSING_EXPLICIT_CONSENT. Which source kinds need it is data (contract.consent_source_kinds).
package memgate.checks.consent

import data.memgate.contract
import data.memgate.lib.operation

violations contains {"stop_reason": "MISSING_EXPLICIT_CONSENT", "rule": "C19-CONSENT", "detail": "explicit_consent_missing"} if {
	operation.governed_write
	input.item.source_kind in contract.consent_source_kinds
	not _consented
}

_consented if input.item.consent.explicit == true
