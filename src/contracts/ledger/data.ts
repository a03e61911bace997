import type { ContractLexicon } from "../../detectors/lexicon";

/** The ledger's tables in the policy bundle (policies/memgate/contracts/ledger/data.json). */
export interface LedgerData {
  kinds: string[];
  source_types: string[];
  attribution_line: string;
  /** P54-C's final-text validator and P54-SOURCE's note rules: policy data the lexicon detector matches. */
  lexicons: Record<string, ContractLexicon>;
}

/** Where the ledger's tables come from: the policy bundle in force (PolicyEngine satisfies this). */
export interface LedgerDataSource {
  data<T>(name: string): T;
}

export function ledgerData(policy: LedgerDataSource): LedgerData {
  const contracts = policy.data<Record<string, LedgerData | undefined> | undefined>("contracts");
  const data = contracts?.ledger;
  if (!data) throw new Error("the policy bundle has no ledger contract data (policies/memgate/contracts/ledger/data.json)");
  return data;
}
