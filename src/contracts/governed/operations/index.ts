import type { GovernedStore } from "../store";
import { deleteItem } from "./delete-item";
import { list } from "./list";
import { WriteRaces } from "./races";
import { read } from "./read";
import { setSettings } from "./set-settings";
import { storeItem } from "./store-item";
import { update } from "./update";

export type { DeleteRequest, ItemRequest, ListRequest, MemoryPage, ReadRequest, SettingsRequest, StoreRequest, UpdateRequest } from "./requests";
export { DEFAULT_LIST_LIMIT, itemOf, targetOf } from "./shared";

/**
 * The Phase 19 contract (seed 000) as declared operations, one file each: STORE, UPDATE,
 * DELETE, READ, LIST, and the settings behind POLICY_DISABLED and ENTITLEMENT_CAP. The kernel
 * runs the lifecycle; these say what to read, what the policy sees (never content: SPEC D7)
 * and what to write, each write with its undo and its event.
 */
export function governedOperations(store: GovernedStore) {
  const races = new WriteRaces(store);
  return {
    store: storeItem(store, races),
    update: update(store, races),
    delete: deleteItem(store, races),
    read: read(races),
    list: list(store),
    setSettings: setSettings(store),
  };
}

export type GovernedOperations = ReturnType<typeof governedOperations>;
