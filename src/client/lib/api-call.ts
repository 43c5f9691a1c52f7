import type { Endpoint, EndpointInput, EndpointResponse } from '#shared/api/endpoint.ts';
import { pathTo } from '#shared/api/paths.ts';
import { readJson } from './api-client.ts';
import { apiRequest } from './api-request.ts';

/** The address of a call: the endpoint's path with its params filled in, then its query. */
export function endpointUrl<E extends Endpoint>(endpoint: E, input: EndpointInput<E>): string {
  const path = input.params
    ? pathTo(endpoint.path, input.params as Record<string, string | number>)
    : endpoint.path;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null) query.set(name, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * The one way the client calls an endpoint: the input typed by the endpoint (a body that does
 * not match its schema does not compile), the CSRF token unless the endpoint is exempt, the
 * answer checked against the endpoint's response schema. A refusal throws ApiError.
 */
export async function callEndpoint<E extends Endpoint>(
  endpoint: E,
  ...[input]: Record<never, never> extends EndpointInput<E>
    ? [input?: EndpointInput<E>]
    : [input: EndpointInput<E>]
): Promise<EndpointResponse<E>> {
  const given = (input ?? {}) as EndpointInput<E>;
  const url = endpointUrl(endpoint, given);
  const body =
    endpoint.method === 'GET'
      ? await readJson(url, 'throw')
      : await (
          await apiRequest(endpoint.method, url, given.body, { csrf: !endpoint.csrfExempt })
        ).json();
  return endpoint.response.parse(body) as EndpointResponse<E>;
}
