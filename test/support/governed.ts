/** A valid Phase 19 STORE input (a consented PREFERENCE); tests override only what they are about. */
export const preference = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  category: "PREFERENCE",
  key: "tone",
  value: "prefer concise responses",
  sourceKind: "USER_EXPLICIT",
  ttlClass: "LONG",
  consent: { explicit: true },
  ...over,
});
