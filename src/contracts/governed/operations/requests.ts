import type { MemoryRecord } from "../store";

/**
 * The item fields of a write (seed 000 §2.1), named as the policy reads them (input.item,
 * input.texts). After the kernel parsed them a value of the wrong type is null; the policy
 * answers it, so nothing here trusts them before `allow`.
 */
export interface ItemRequest {
  subject_id?: string | null;
  category?: string | null;
  key?: string | null;
  value?: string | null;
  source_kind?: string | null;
  ttl_class?: string | null;
  source_ref?: string | null;
  origin?: string | null;
  consent?: { explicit?: boolean | null; evidence_ref?: string | null } | null;
}

export type StoreRequest = ItemRequest;

/** UPDATE (SPEC D2): the whole new content of a live item, judged like a STORE. */
export interface UpdateRequest extends ItemRequest {
  memory_id?: string | null;
  /** Optimistic concurrency: the version the caller read; a newer live version answers NOT_FOUND. */
  expected_version?: number | null;
}

/** DELETE (SPEC D1): logical; the reason is free text: the item keeps it (erasable), the event its salted digest. */
export interface DeleteRequest {
  subject_id?: string | null;
  memory_id?: string | null;
  reason?: string | null;
  expected_version?: number | null;
}

export interface ReadRequest {
  subject_id?: string | null;
  memory_id?: string | null;
}

export interface ListRequest {
  subject_id?: string | null;
  category?: string | null;
  /** Only the items stored under this key: a client's lookup by its own key in one round trip (LangGraph's get). */
  key?: string | null;
  limit?: number | null;
  after?: string | null;
}

/** setMemorySettings: no subject means the whole tenant; absent values stay as they are. */
export interface SettingsRequest {
  subject_id?: string | null;
  enabled?: boolean | null;
  max_items_per_subject?: number | null;
  max_writes_per_window?: number | null;
}

export interface MemoryPage {
  items: MemoryRecord[];
  nextCursor: string | null;
}
