import type { Collection, Db } from "mongodb";
import { COLLECTIONS } from "./database";

/** What an admin sets for a tenant (subject_id null) or one subject (C19-POLICY, C19-CAP). */
export interface MemorySettingsValues {
  enabled?: boolean | null;
  max_items_per_subject?: number | null;
  max_writes_per_window?: number | null;
}

export interface MemorySettingsRecord extends MemorySettingsValues {
  _id: string;
  tenant_id: string;
  subject_id: string | null;
  updated_at: Date;
  updated_by: { id: string; roles: string[] };
}

const part = (value: string): string => encodeURIComponent(value);

/** `_id`s: `<tenant>` for the tenant, `<tenant>:<subject>` for a subject, so reads are `_id` lookups. */
export function settingsDocId(tenantId: string, subjectId: string | null): string {
  return subjectId ? `${part(tenantId)}:${part(subjectId)}` : part(tenantId);
}

export class MemorySettingsRepository {
  private readonly settings: Collection<MemorySettingsRecord>;

  constructor(db: Db) {
    this.settings = db.collection<MemorySettingsRecord>(COLLECTIONS.memorySettings);
  }

  /** The tenant's and the subject's settings, in one `_id` lookup. */
  async forSubject(tenantId: string, subjectId: string): Promise<{ tenant: MemorySettingsRecord | null; subject: MemorySettingsRecord | null }> {
    const tenantId_ = settingsDocId(tenantId, null);
    const subjectId_ = subjectId ? settingsDocId(tenantId, subjectId) : null;
    const docs = await this.settings.find({ _id: { $in: subjectId_ ? [tenantId_, subjectId_] : [tenantId_] } }).toArray();
    return {
      tenant: docs.find((d) => d._id === tenantId_) ?? null,
      subject: subjectId_ ? (docs.find((d) => d._id === subjectId_) ?? null) : null,
    };
  }

  async get(tenantId: string, subjectId: string | null): Promise<MemorySettingsRecord | null> {
    return this.settings.findOne({ _id: settingsDocId(tenantId, subjectId) });
  }

  /** Writes the whole record (given values merged by the caller). */
  async put(record: MemorySettingsRecord): Promise<void> {
    await this.settings.replaceOne({ _id: record._id }, record, { upsert: true });
  }

  /** Puts back what was there before (or nothing) when the change's event could not be written. */
  async restore(id: string, previous: MemorySettingsRecord | null): Promise<void> {
    if (previous) await this.settings.replaceOne({ _id: id }, previous, { upsert: true });
    else await this.settings.deleteOne({ _id: id });
  }
}

/** The policy's view of a settings record: values only. */
export function settingsInput(record: MemorySettingsRecord | null): MemorySettingsValues | null {
  if (!record) return null;
  return {
    enabled: record.enabled ?? null,
    max_items_per_subject: record.max_items_per_subject ?? null,
    max_writes_per_window: record.max_writes_per_window ?? null,
  };
}
