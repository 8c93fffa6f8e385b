/** `defineEndpoint` and `serveEndpoint` for the token endpoints: the runtime's API context plus its token services. */
import { endpointDefiner, endpointServer } from '../api';
import type { TokenApiContext } from '../api/endpoints/token-endpoints';
import { getRuntime } from '../runtime/index';

const tokenApiContext = async (): Promise<TokenApiContext> => {
  const runtime = await getRuntime();
  return { ...runtime.api.context, tokens: runtime.tokens.services };
};

export const defineTokenEndpoint = endpointDefiner(tokenApiContext);
export const serveTokenEndpoint = endpointServer(tokenApiContext);
