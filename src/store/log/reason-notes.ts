import { randomUUID } from "node:crypto";
import type { Collection, Db } from "mongodb";
import { newSalt, saltedDigest } from "../canonical";
import { AUDIT_COLLECTIONS } from "./collections";

interface ReasonNoteDoc {
  _id: string;
  tenant_id: string;
  subject_id: string | null;
  operation: string;
  note: string;
  salt: string;
  at: string;
}

/**
 * Nothing free-form in the permanent record (issue 22 §4, SPEC D1): an operation's reason is a
 * code from policy data, and the optional free-text note beside it (already judged by every
 * detector, as every text is) is kept here, outside the signed chain. The event carries the note's
 * id and salted digest only: once the note is erased, with its salt, the digest links to nothing.
 */
export class ReasonNotes {
  private readonly notes: Collection<ReasonNoteDoc>;

  constructor(db: Db) {
    this.notes = db.collection<ReasonNoteDoc>(AUDIT_COLLECTIONS.reasonNotes);
  }

  /** Keeps a note; what the event carries about it. */
  async keep(tenantId: string, subjectId: string | null, operation: string, note: string, at: Date): Promise<{ note_id: string; note_digest: string }> {
    const salt = newSalt();
    const doc: ReasonNoteDoc = { _id: randomUUID(), tenant_id: tenantId, subject_id: subjectId, operation, note, salt, at: at.toISOString() };
    await this.notes.insertOne(doc);
    return { note_id: doc._id, note_digest: saltedDigest(salt, { note }) };
  }

  /** Undo of `keep` (a write set that failed halfway). */
  async remove(noteId: string): Promise<void> {
    await this.notes.deleteOne({ _id: noteId });
  }

  /** Erases the notes about one subject (an erasure of the subject erases what was written about it). */
  async eraseSubject(tenantId: string, subjectId: string): Promise<number> {
    return (await this.notes.deleteMany({ tenant_id: tenantId, subject_id: subjectId })).deletedCount;
  }

  async get(tenantId: string, noteId: string): Promise<{ note: string; salt: string } | null> {
    const doc = await this.notes.findOne({ _id: noteId, tenant_id: tenantId });
    return doc ? { note: doc.note, salt: doc.salt } : null;
  }
}
