package memgate.doors_test

import data.memgate.contract
import data.memgate.doors

# Issue 23 §4: every stop reason has the HTTP status a door answers it with, and only stop reasons do.
test_every_stop_reason_has_an_http_status if {
	object.keys(doors.http_status) == {code | some code in contract.priority}
}

# A success is 200, the gateway's own failure 500, any other refusal 400 (change the request) or 403.
test_http_statuses_say_success_request_or_gateway if {
	every code, status in doors.http_status {
		_fits(code, status)
	}
}

_fits(code, 200) if startswith(code, "SUCCESS_")

_fits("INTERNAL_INCONSISTENCY", 500)

_fits(code, status) if {
	not startswith(code, "SUCCESS_")
	code != "INTERNAL_INCONSISTENCY"
	status in {400, 403}
}
