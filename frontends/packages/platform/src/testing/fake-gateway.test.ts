import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeGateway, json } from './fake-gateway';

afterEach(() => vi.unstubAllGlobals());

describe('fakeGateway', () => {
  it('answers by method and path, GET unless told, and hands the route the request and its query', async () => {
    const api = fakeGateway({
      'GET /internal/users/u1': () => json({ id: 'u1' }),
      'POST /internal/users/u1': (init, url) => json({ sent: JSON.parse(String(init?.body)), tab: url.searchParams.get('tab') }, 201),
    });
    const got = await fetch('http://gw.test/internal/users/u1?x=1');
    expect(await got.json()).toEqual({ id: 'u1' });
    const posted = await fetch('http://gw.test/internal/users/u1?tab=2', { method: 'POST', body: '{"a":1}' });
    expect(posted.status).toBe(201);
    expect(await posted.json()).toEqual({ sent: { a: 1 }, tab: '2' });
    expect(api.calls('POST /internal/users/u1').map((init) => init?.body)).toEqual(['{"a":1}']);
    expect(api.calls('GET /internal/users/u1')).toHaveLength(1);
  });

  it('answers what it does not know with a 404 that names it', async () => {
    fakeGateway({ 'GET /internal/users/u1': () => json({}) });
    const response = await fetch('http://gw.test/internal/users/u1', { method: 'DELETE' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'unexpected DELETE /internal/users/u1' });
  });
});
