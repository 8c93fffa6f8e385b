/**
 * Matching a request path against the route templates of the cost table ("METHOD /v1/path/{param}"), for callers
 * that dispatch to /v1 handlers without Next's file router (the explorer's private path). A literal segment wins over
 * a parameter; `krc20` in the token segment is read as `tk20`.
 */
import { routeMethod, routePath, type RouteId } from '../keys/costs';

export interface RouteMatch {
  route: RouteId;
  params: Record<string, string>;
}

const TOKEN_STANDARD_ALIASES: Readonly<Record<string, string>> = { krc20: 'tk20' };

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

/** Route templates split once: matching runs on every /v1 request served ahead of Next's router. */
const templateSegments = new Map<RouteId, string[]>();

function segmentsOfRoute(route: RouteId): string[] {
  let segments = templateSegments.get(route);
  if (segments === undefined) templateSegments.set(route, (segments = segmentsOf(routePath(route))));
  return segments;
}

function normaliseSegments(segments: string[]): string[] {
  if (segments[0] === 'v1' && segments[1] === 'tokens' && segments[2] !== undefined) {
    const standard = segments[2].toLowerCase();
    return [...segments.slice(0, 2), TOKEN_STANDARD_ALIASES[standard] ?? standard, ...segments.slice(3)];
  }
  return segments;
}

function matchTemplate(template: string[], actual: string[]): Record<string, string> | null {
  if (template.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of template.entries()) {
    const value = actual[index] as string;
    if (part.startsWith('{') && part.endsWith('}')) {
      try {
        params[part.slice(1, -1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (part !== value) {
      return null;
    }
  }
  return params;
}

/** The routes whose path matches, literal-most first; the first whose method matches is the route. */
export function matchRoutePath(routes: readonly RouteId[], pathname: string): RouteMatch[] {
  const actual = normaliseSegments(segmentsOf(pathname));
  const matches: { match: RouteMatch; parameterCount: number }[] = [];
  for (const route of routes) {
    const params = matchTemplate(segmentsOfRoute(route), actual);
    if (params !== null) matches.push({ match: { route, params }, parameterCount: Object.keys(params).length });
  }
  return matches.sort((a, b) => a.parameterCount - b.parameterCount).map(({ match }) => match);
}

export function routesForMethod(matches: readonly RouteMatch[], method: string): RouteMatch | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  return matches.find((match) => routeMethod(match.route) === wanted);
}
