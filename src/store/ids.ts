/**
 * Deterministic document ids. A READ is then an `_id` lookup on every backend: FerretDB
 * on SQLite answers `_id` equality in 1-2 ms but scans the collection for any other filter.
 * Each part is URI-encoded so that no part can contain the separator.
 */
const part = (value: string): string => encodeURIComponent(value);

export function memoryDocId(tenantId: string, subjectId: string, memoryId: string): string {
  return `${part(tenantId)}:${part(subjectId)}:${part(memoryId)}`;
}

export function memoryVersionDocId(tenantId: string, subjectId: string, memoryId: string, version: number): string {
  return `${memoryDocId(tenantId, subjectId, memoryId)}:v${version}`;
}

/** Fixed-width seq keeps ids of one tenant in order and unambiguous. */
export function eventDocId(tenantId: string, seq: number): string {
  return `${part(tenantId)}:${String(seq).padStart(12, "0")}`;
}
