import { boolean, enumeration, id, number, object, text, type Fields } from "../../kernel/fields";

/**
 * Every field each operation accepts; one bound per name in
 * policies/memgate/contracts/governed/data.json "fields". Key, value, source ref and the
 * consent's evidence are free text (every detector runs over them), like a DELETE reason.
 */
const SUBJECT: Fields = { subject_id: id() };
const ITEM: Fields = {
  ...SUBJECT,
  category: enumeration(),
  key: text(),
  value: text(),
  source_kind: enumeration(),
  ttl_class: enumeration(),
  source_ref: text(),
  origin: enumeration(),
  consent: object({ explicit: boolean(), evidence_ref: text() }),
};
export const STORE_FIELDS: Fields = ITEM;
export const UPDATE_FIELDS: Fields = { ...ITEM, memory_id: id(), expected_version: number() };
export const DELETE_FIELDS: Fields = { ...SUBJECT, memory_id: id(), reason: text(), expected_version: number() };
export const READ_FIELDS: Fields = { ...SUBJECT, memory_id: id() };
export const LIST_FIELDS: Fields = { ...SUBJECT, category: enumeration(), key: text(), limit: number(), after: id() };
export const SET_SETTINGS_FIELDS: Fields = { ...SUBJECT, enabled: boolean(), max_items_per_subject: number(), max_writes_per_window: number() };
