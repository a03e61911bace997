# METADATA
# description: |
#   Who may do what. Roles come from the verified token (SPEC D5); which roles may call
#   an operation is data (operations/<contract>/data.json). Acting for a subject not named
#   in the token is refused, except for the roles in contract.any_subject_roles (an admin's
#   owner override, seed 002).
package memgate.checks.authz

import data.memgate.contract
import data.memgate.lib.operation

violations contains {"stop_reason": "POLICY_DISABLED", "rule": "AUTHZ-ROLE", "detail": "role_not_permitted"} if {
	operation.spec
	not _role_permits
}

# Refusing a foreign subject as NOT_FOUND for reads keeps existence from leaking.
violations contains {"stop_reason": _subject_refusal, "rule": "AUTHZ-SUBJECT", "detail": "subject_not_in_token"} if {
	subject_refused
}

# SPEC D3, D5: the token does not hold the subject (nor is the operation tenant-wide, nor may
# the role act for any subject). main.rego then answers from this package's violations only,
# so nothing that depends on the target (found, live, erasable, owned) can show.
subject_refused if not _subject_permitted

_role_permits if {
	some role in input.principal.roles
	role in operation.spec.roles
}

_subject_permitted if input.subject_id in input.principal.subjects

_subject_permitted if {
	some role in input.principal.roles
	role in contract.any_subject_roles
}

_subject_refusal := "POLICY_DISABLED" if operation.is_write

_subject_refusal := "NOT_FOUND" if not operation.is_write
