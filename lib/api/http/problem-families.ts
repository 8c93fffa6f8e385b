/**
 * The problem codes that whole kinds of endpoint share, in the order the reference names them. The OpenAPI document
 * lists each operation's codes in full; the reference names these families once instead of repeating their codes.
 */
export const PROBLEM_CODE_FAMILIES = [
  {
    id: 'every',
    label: 'every call',
    codes: ['method_not_allowed', 'api_key_in_query', 'unknown_query_parameter', 'invalid_request', 'internal_error'],
  },
  {
    id: 'keyed',
    label: 'keyed calls',
    codes: ['missing_api_key', 'invalid_api_key', 'api_key_disabled', 'rate_limited', 'allowance_exhausted'],
  },
  { id: 'body', label: 'calls with a body', codes: ['unsupported_media_type', 'body_too_large', 'invalid_json'] },
  {
    id: 'node',
    label: 'calls to the node',
    codes: ['node_rejected', 'node_protocol_error', 'node_unreachable', 'node_timeout'],
  },
] as const;

export type ProblemCodeFamily = (typeof PROBLEM_CODE_FAMILIES)[number];
export type ProblemFamilyId = ProblemCodeFamily['id'];

/** The families every code of which is in `codes`, and the codes no such family holds. */
export function groupProblemCodes(codes: readonly string[]): { families: ProblemFamilyId[]; own: string[] } {
  const present = new Set(codes);
  const families = PROBLEM_CODE_FAMILIES.filter((family) => family.codes.every((code) => present.has(code)));
  const covered = new Set<string>(families.flatMap((family) => family.codes));
  return { families: families.map((family) => family.id), own: codes.filter((code) => !covered.has(code)) };
}

/** The family a code belongs to, if any. */
export function familyOfProblemCode(code: string): ProblemCodeFamily | undefined {
  return PROBLEM_CODE_FAMILIES.find((family) => (family.codes as readonly string[]).includes(code));
}
