import type { Collection, Document, Filter } from "mongodb";

/**
 * The subject of a quarantined object of a tenant, if there is one: the lookup every
 * contract's re-judging store answers `quarantined` with (release and erasure ask it).
 * `idField` names the object's id field, `statusField` the field that says "quarantined".
 */
export async function quarantinedSubject(
  collection: Collection<Document>,
  where: { tenantId: string; idField: string; objectId: string; subjectId: string | null; statusField?: string },
): Promise<{ subjectId: string } | null> {
  const filter: Filter<Document> = {
    tenant_id: where.tenantId,
    [where.idField]: where.objectId,
    [where.statusField ?? "status"]: "quarantined",
    ...(where.subjectId ? { subject_id: where.subjectId } : {}),
  };
  const found = await collection.findOne(filter, { projection: { subject_id: 1 } });
  return found && { subjectId: found.subject_id as string };
}
