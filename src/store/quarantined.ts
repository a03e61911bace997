import type { Collection, Document, Filter } from "mongodb";

/** The first and last `_id` of a tenant's objects when every `_id` starts with the URI-encoded tenant and ":". */
function tenantIdRange(tenantId: string, after: string | null): { $gt: string; $lt: string } {
  const prefix = `${encodeURIComponent(tenantId)}:`;
  // ";" is the code point after ":": every id of the tenant sorts below it.
  return { $gt: after ?? prefix, $lt: `${encodeURIComponent(tenantId)};` };
}

/**
 * A re-audit's scan (RejudgeTarget.scan): the tenant's objects after `after` in `_id` order, at
 * most `limit`, in one round trip. An `_id` range is what FerretDB answers from its primary key.
 */
export async function tenantBatch<T extends Document>(
  collection: Collection<T>,
  tenantId: string,
  after: string | null,
  limit: number,
  projection: Document,
): Promise<T[]> {
  const filter = { _id: tenantIdRange(tenantId, after) } as unknown as Filter<T>;
  return (await collection.find(filter, { projection }).sort({ _id: 1 }).limit(limit).toArray()) as T[];
}

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

/**
 * Quarantine by a status field, for the re-judging targets whose objects carry one (governed
 * items, companion proposals, ledger items and proposals): the object leaves every read that
 * selects on its live status, and a release puts that status back. Conditional on the status,
 * so an object that changed meanwhile is left as it is.
 */
export class StatusQuarantine {
  constructor(
    private readonly collection: Collection<Document>,
    private readonly where: { idField: string; live: string; statusField?: string },
  ) {}

  private get status(): string {
    return this.where.statusField ?? "status";
  }

  /** False when the object is no longer live. */
  async quarantine(docId: string, mark: object): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: docId as never, [this.status]: this.where.live },
      { $set: { [this.status]: "quarantined", quarantine: { ...mark, previous_status: this.where.live } } },
    );
    return result.modifiedCount === 1;
  }

  quarantined(tenantId: string, objectId: string, subjectId: string | null): Promise<{ subjectId: string } | null> {
    return quarantinedSubject(this.collection, { tenantId, idField: this.where.idField, objectId, subjectId, statusField: this.status });
  }

  /** The status the object had before its quarantine, restored; null when there is no such quarantined object. */
  async release(tenantId: string, objectId: string, subjectId: string | null): Promise<{ subjectId: string } | null> {
    const found = await this.collection.findOne({
      tenant_id: tenantId,
      [this.where.idField]: objectId,
      [this.status]: "quarantined",
      ...(subjectId ? { subject_id: subjectId } : {}),
    });
    const previous = (found?.quarantine as { previous_status?: string } | undefined)?.previous_status;
    if (!found || !previous) return null;
    const result = await this.collection.updateOne(
      { _id: found._id, [this.status]: "quarantined" },
      { $set: { [this.status]: previous }, $unset: { quarantine: "" } },
    );
    return result.modifiedCount === 1 ? { subjectId: found.subject_id as string } : null;
  }
}
