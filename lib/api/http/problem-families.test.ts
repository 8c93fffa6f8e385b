import { describe, expect, it } from 'vitest';
import { familyOfProblemCode, groupProblemCodes, PROBLEM_CODE_FAMILIES } from './problem-families';

describe('problem code families', () => {
  it('names a family only when every one of its codes is present, and keeps the rest as the call’s own', () => {
    const every = PROBLEM_CODE_FAMILIES[0].codes;
    const node = PROBLEM_CODE_FAMILIES[3].codes;
    expect(groupProblemCodes([...every, ...node.slice(0, 2), 'transaction_not_found'])).toEqual({
      families: ['every'],
      own: [...node.slice(0, 2), 'transaction_not_found'],
    });
    expect(groupProblemCodes([...node, ...every])).toEqual({ families: ['every', 'node'], own: [] });
  });

  it('puts each code in at most one family', () => {
    const codes = PROBLEM_CODE_FAMILIES.flatMap((family) => family.codes);
    expect(new Set(codes).size).toBe(codes.length);
    expect(familyOfProblemCode('node_timeout')?.id).toBe('node');
    expect(familyOfProblemCode('transaction_not_found')).toBeUndefined();
  });
});
