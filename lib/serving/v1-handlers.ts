/**
 * Every /v1 endpoint bound to the runtime, by route id, built from the one endpoint list
 * (lib/api/openapi/openapi-endpoints.ts) so no endpoint is listed twice: the ApiHandlers `npm start`'s front (v1-fast-path.ts)
 * and the explorer's private path (explorer-path.ts) call with path parameters already decoded.
 */
import type { ApiHandler, RouteId } from '../api';
import { API_ENDPOINTS } from '../api/openapi/openapi-endpoints';
import { TOKEN_ACTIVITY_ENDPOINT_DOCS } from '../api/openapi/openapi-token-activity-endpoints';
import { TOKEN_ENDPOINT_DOCS } from '../api/openapi/openapi-token-endpoints';
import { serveEndpoint } from './api';
import { serveTokenEndpoint } from './token-api';

const TOKEN_ROUTES: ReadonlySet<RouteId> = new Set(
  [...TOKEN_ENDPOINT_DOCS, ...TOKEN_ACTIVITY_ENDPOINT_DOCS].map(({ definition }) => definition.id),
);

/** The token route ids fix the standard segment (tk20) that the token definitions read from the path parameters. */
const withStandard =
  (handler: ApiHandler): ApiHandler =>
  (request, params) =>
    handler(request, { standard: 'tk20', ...params });

export const V1_API_HANDLERS: Partial<Record<RouteId, ApiHandler>> = Object.fromEntries(
  API_ENDPOINTS.map(({ definition }) => [
    definition.id,
    TOKEN_ROUTES.has(definition.id)
      ? withStandard(serveTokenEndpoint(definition as Parameters<typeof serveTokenEndpoint>[0]))
      : serveEndpoint(definition as Parameters<typeof serveEndpoint>[0]),
  ]),
);

