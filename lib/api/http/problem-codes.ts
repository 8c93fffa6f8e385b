/**
 * Every problem code of the API with its HTTP status and title: the one code → status table. An ApiError names its
 * code and says what went wrong (detail, field errors, headers); the status and title always come from here, so a
 * code never answers two statuses. Endpoint-specific builders live beside their endpoints and use these codes.
 */
export const PROBLEM_CODES = {
  invalid_request: { status: 400, title: 'Invalid request' },
  invalid_json: { status: 400, title: 'Malformed JSON body' },
  invalid_hex: { status: 400, title: 'Invalid hexadecimal value' },
  invalid_address: { status: 400, title: 'Invalid address' },
  conflicting_cursors: { status: 400, title: 'Conflicting paging cursors' },
  limit_out_of_range: { status: 400, title: 'Page size out of range' },
  unknown_cursor: { status: 400, title: 'Unknown paging cursor' },
  unknown_query_parameter: { status: 400, title: 'Unknown query parameter' },
  api_key_in_query: { status: 400, title: 'API key in the URL' },
  limit_exceeded: { status: 400, title: 'Request limit exceeded' },
  transaction_rejected: { status: 400, title: 'Transaction rejected by the node' },
  block_rejected: { status: 400, title: 'Block rejected by the node' },
  node_rejected: { status: 400, title: 'Request rejected by the node' },
  invalid_webhook_url: { status: 400, title: 'Webhook URL refused' },
  missing_api_key: { status: 401, title: 'Missing API key' },
  invalid_api_key: { status: 401, title: 'Invalid API key' },
  invalid_metrics_token: { status: 401, title: 'Invalid metrics token' },
  allowance_exhausted: { status: 402, title: 'Monthly RU allowance exhausted' },
  api_key_disabled: { status: 403, title: 'API key disabled' },
  block_not_found: { status: 404, title: 'Block not found' },
  transaction_not_found: { status: 404, title: 'Transaction not found' },
  covenant_not_found: { status: 404, title: 'Covenant not found' },
  mempool_entry_not_found: { status: 404, title: 'Mempool entry not found' },
  demo_wallet_not_found: { status: 404, title: 'No demo wallet' },
  route_not_found: { status: 404, title: 'No such endpoint' },
  token_not_found: { status: 404, title: 'Token not found' },
  webhook_not_found: { status: 404, title: 'Webhook not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  body_too_large: { status: 413, title: 'Request body too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  upgrade_required: { status: 426, title: 'WebSocket upgrade required' },
  rate_limited: { status: 429, title: 'Rate limit exceeded' },
  stream_limit: { status: 429, title: 'Too many open streams' },
  internal_error: { status: 500, title: 'Internal error' },
  node_protocol_error: { status: 502, title: 'Bad answer from the node' },
  node_unreachable: { status: 503, title: 'Node unreachable' },
  node_not_synced: { status: 503, title: 'Node not synced' },
  node_timeout: { status: 504, title: 'Node timeout' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEM_CODES;
