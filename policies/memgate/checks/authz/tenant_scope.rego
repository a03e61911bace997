package memgate.checks.authz

import data.memgate.lib.operation

# Tenant-wide operations (an auditor's view of the tenant's log, an admin's
# acknowledgement) act for no single subject: operations declared with
# "scope": "tenant" pass the subject check; the tenant always comes from the token (D5).
_subject_permitted if operation.spec.scope == "tenant"
