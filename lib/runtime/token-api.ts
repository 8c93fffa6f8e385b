/** `defineEndpoint` for the token endpoints: the runtime's API context plus its token services. */
import { endpointDefiner } from '../api';
import type { TokenApiContext } from '../api/token-endpoints';
import { getRuntime } from './index';

export const defineTokenEndpoint = endpointDefiner<TokenApiContext>(async () => {
  const runtime = await getRuntime();
  return { ...runtime.api.context, tokens: runtime.tokens.services };
});
