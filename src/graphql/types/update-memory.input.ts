import { Field, ID, InputType, Int } from "type-graphql";
import type { UpdateRequest } from "../../contracts/governed.service";
import { StoreMemoryInput } from "./store-memory.input";

/**
 * UPDATE (SPEC D2): the whole new content of a live item, judged by the same rules as STORE;
 * the new version's expiry counts from the update.
 */
@InputType()
export class UpdateMemoryInput extends StoreMemoryInput {
  @Field(() => ID) memoryId!: string;
  @Field(() => Int, { nullable: true, description: "The version you read; if another write superseded it, the answer is NOT_FOUND." })
  expectedVersion?: number | null;

  override toRequest(): UpdateRequest {
    return { ...super.toRequest(), memoryId: this.memoryId, expectedVersion: this.expectedVersion };
  }
}
