/**
 * Every /v1 endpoint bound to the runtime, by route id: the table the explorer's private path dispatches through,
 * built from the one endpoint list (lib/api/openapi-endpoints.ts) so no endpoint is listed twice.
 */
import type { RouteHandler, RouteId } from '../api';
import { API_ENDPOINTS } from '../api/openapi-endpoints';
import { TOKEN_ACTIVITY_ENDPOINT_DOCS } from '../api/openapi-token-activity-endpoints';
import { TOKEN_ENDPOINT_DOCS } from '../api/openapi-token-endpoints';
import { defineEndpoint } from './api';
import { defineTokenEndpoint } from './token-api';

const TOKEN_ROUTES: ReadonlySet<RouteId> = new Set(
  [...TOKEN_ENDPOINT_DOCS, ...TOKEN_ACTIVITY_ENDPOINT_DOCS].map(({ definition }) => definition.id),
);

/** The token route ids fix the standard segment (tk20) that the token definitions read from the path parameters. */
const withStandard =
  (handler: RouteHandler): RouteHandler =>
  (request, context) =>
    handler(request, { params: context.params.then((params) => ({ standard: 'tk20', ...params })) });

export const V1_HANDLERS: Partial<Record<RouteId, RouteHandler>> = Object.fromEntries(
  API_ENDPOINTS.map(({ definition }) => [
    definition.id,
    TOKEN_ROUTES.has(definition.id)
      ? withStandard(defineTokenEndpoint(definition as Parameters<typeof defineTokenEndpoint>[0]))
      : defineEndpoint(definition as Parameters<typeof defineEndpoint>[0]),
  ]),
);
