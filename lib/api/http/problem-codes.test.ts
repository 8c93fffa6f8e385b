import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { PROBLEM_EXAMPLES } from '../openapi/openapi';
import { PROBLEM_CODES } from './problem-codes';

describe('the problem code table', () => {
  it('the OpenAPI document shows every code but those answered outside the documented endpoints', () => {
    const outside = ['invalid_metrics_token', 'stream_limit', 'upgrade_required'];
    expect(Object.keys(PROBLEM_EXAMPLES).sort()).toEqual(Object.keys(PROBLEM_CODES).filter((code) => !outside.includes(code)).sort());
  });

  it('an error takes its status and title from its code', () => {
    const error = new ApiError({ code: 'node_timeout', detail: 'slow' });
    expect([error.status, error.title]).toEqual([504, 'Node timeout']);
    expect(ApiError.rateLimited(3, '1').status).toBe(PROBLEM_CODES.rate_limited.status);
  });
});
