# METADATA
# description: |
#   C19-FORBID with the optional model judge (MEMGATE_JUDGE_URL, src/detectors/model-judge.ts):
#   its labels are facts of class judge:<class>; a label naming a forbidden class is
#   FORBIDDEN_CATEGORY like any detector's. A judge that did not answer (judge:unavailable:
#   timeout, error, malformed answer) fails closed: INTERNAL_INCONSISTENCY, nothing written.
package memgate.checks.judge

import data.memgate.forbidden
import data.memgate.lib.content

violations contains {"stop_reason": "FORBIDDEN_CATEGORY", "rule": "C19-FORBID", "detail": concat("_", [class, "by_model_judge_in", f.field])} if {
	some f in content.findings
	startswith(f.class, "judge:")
	class := substring(f.class, 6, -1)
	forbidden.classes[class]
}

violations contains {"stop_reason": "INTERNAL_INCONSISTENCY", "rule": "C19-FAIL", "detail": "model_judge_unavailable"} if {
	some f in content.findings
	f.class == "judge:unavailable"
}
