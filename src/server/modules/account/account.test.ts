import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestShop, registerAndSignIn, sessionCookie, type TestShop } from '../../testing/test-app';

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(async () => shop?.close());

describe('PUT /api/account/profile', () => {
  it('saves the shopper’s name, phone and address', async () => {
    const { cookie } = await registerAndSignIn(shop.app, { username: 'profile1', email: 'profile1@example.nz' });
    const call = as(shop.app, cookie);
    const response = await call({
      method: 'PUT',
      url: '/api/account/profile',
      payload: { firstName: 'Mere', lastName: 'Parata', phone: '027 555 1234', address: '8 Rata Street', city: 'Nelson', postalCode: '7010', region: 'Nelson', isAdmin: true, email: 'x@y.z' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ firstName: 'Mere', phone: '027 555 1234', city: 'Nelson', postalCode: '7010', region: 'Nelson', isAdmin: false, email: 'profile1@example.nz' });
    expect((await call({ method: 'GET', url: '/api/me' })).json()).toMatchObject({ lastName: 'Parata', address: '8 Rata Street' });
  });

  it('answers field messages for bad input', async () => {
    const { cookie } = await registerAndSignIn(shop.app, { username: 'profile2', email: 'profile2@example.nz' });
    const response = await as(shop.app, cookie)({
      method: 'PUT',
      url: '/api/account/profile',
      payload: { firstName: 'M', lastName: 'Parata', phone: '555', address: '8 Rata Street', postalCode: '70', region: 'Atlantis' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toMatchObject({
      firstName: 'First name is required',
      phone: 'Phone number is required',
      postalCode: 'Postcode must be 4 digits',
      region: 'Choose a region',
    });
  });

  it('asks a visitor to sign in', async () => {
    expect((await shop.app.inject({ method: 'PUT', url: '/api/account/profile', payload: {} })).statusCode).toBe(401);
  });
});

describe('PUT /api/account/password', () => {
  it('needs the current password, then signs out every other session', async () => {
    const { cookie, details } = await registerAndSignIn(shop.app, { username: 'secret1', email: 'secret1@example.nz' });
    const otherDevice = sessionCookie(await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email: details.email, password: details.password } }));
    const call = as(shop.app, cookie);

    const wrong = await call({ method: 'PUT', url: '/api/account/password', payload: { currentPassword: 'not-it-1', newPassword: 'pohutukawa-7' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors).toEqual({ currentPassword: 'Your current password is not correct' });
    const short = await call({ method: 'PUT', url: '/api/account/password', payload: { currentPassword: details.password, newPassword: 'abc' } });
    expect(short.json().fieldErrors).toEqual({ newPassword: 'Password must be at least 6 characters' });

    const changed = await call({ method: 'PUT', url: '/api/account/password', payload: { currentPassword: details.password, newPassword: 'pohutukawa-7' } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ message: 'Your password has been changed.' });
    expect((await call({ method: 'GET', url: '/api/me' })).statusCode).toBe(200);
    expect((await as(shop.app, otherDevice)({ method: 'GET', url: '/api/me' })).statusCode).toBe(401);
    const oldLogin = await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email: details.email, password: details.password } });
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email: details.email, password: 'pohutukawa-7' } });
    expect(newLogin.statusCode).toBe(200);
  });
});
