import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest } from './api-client';

afterEach(() => vi.unstubAllGlobals());

function answer(status: number, body: string, statusText = '') {
  const fetchMock = vi.fn(async () => new Response(body || null, { status, statusText }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('apiRequest', () => {
  it('sends credentials and a JSON body with a JSON content type (spec 7)', async () => {
    const fetchMock = answer(200, '{"ok":true}');
    await apiRequest('/api/cart/1/items', { method: 'POST', body: { productId: 1, quantity: 2 } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/cart/1/items');
    expect(init.credentials).toBe('include');
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/json');
    expect(init.body).toBe('{"productId":1,"quantity":2}');
  });

  it('fails with "{status}: {body}" on a non-OK answer (spec 8)', async () => {
    answer(409, '{"message":"Neelam Mangoes is out of stock"}', 'Conflict');
    const error = await apiRequest('/api/cart/1/items', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('409: {"message":"Neelam Mangoes is out of stock"}');
    expect((error as ApiError).body?.message).toBe('Neelam Mangoes is out of stock');
  });

  it('uses the status text when the body is empty', async () => {
    answer(503, '', 'Service Unavailable');
    await expect(apiRequest('/api/settings')).rejects.toThrow('503: Service Unavailable');
  });

  it('fails on 401 by default, and answers null when asked to', async () => {
    answer(401, '{"message":"Please sign in to continue."}', 'Unauthorized');
    await expect(apiRequest('/api/me')).rejects.toThrow(/^401: /);
    answer(401, '', 'Unauthorized');
    await expect(apiRequest('/api/me', { on401: 'null' })).resolves.toBeNull();
  });
});
