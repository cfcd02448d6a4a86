import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '../../../contracts/errors';
import type { PublicSettings, StoredSettings } from '../../../contracts/settings';
import { shopRules } from '../../../contracts/shop-rules';
import { defaultSettings } from './defaults';
import { readStoredSettings } from './service';
import { as, createTestShop, shopperDefaults, signInCustomerAndAdmin, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let customer: string;
let admin: string;
beforeAll(async () => {
  shop = await createTestShop();
  ({ customer, admin } = await signInCustomerAndAdmin(shop));
});
afterAll(async () => shop?.close());

const publicSettings = async () => (await shop.app.inject({ method: 'GET', url: '/api/settings' })).json<PublicSettings>();
const storedSettings = async () => (await as(shop.app, admin)({ method: 'GET', url: '/api/admin/settings' })).json<StoredSettings>();
const putSettings = (cookie: string | undefined, payload: unknown) =>
  cookie
    ? as(shop.app, cookie)({ method: 'PUT', url: '/api/admin/settings', payload: payload as Record<string, unknown> })
    : shop.app.inject({ method: 'PUT', url: '/api/admin/settings', payload: payload as Record<string, unknown> });

describe('GET /api/settings', () => {
  it('answers the spec settings, with both forms of maintenance, hours, days, social links and analytics', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/settings' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const settings = response.json<PublicSettings>();
    expect(settings).toMatchObject({
      siteName: 'Mango Shop',
      socialMedia: { facebook: expect.stringMatching(/^https:\/\//), instagram: expect.stringMatching(/^https:\/\//), whatsapp: expect.stringMatching(/^https:\/\//) },
      maintenance: { enabled: false, message: shopRules.maintenanceDefaultMessage },
      maintenance_mode_enabled: false,
      maintenance_message: shopRules.maintenanceDefaultMessage,
      openingTime: '09:00',
      closingTime: '17:00',
      daysOpen: { Mon: true, Tue: true, Wed: true, Thu: true, Fri: true, Sat: true, Sun: false },
      // Difference 8: no built-in analytics ids.
      analytics: { gaTrackingId: '', metaPixelId: '' },
      shipping: 12,
    });
  });

  it('keeps staff-only settings out of the public answer', async () => {
    const settings = await publicSettings();
    expect(settings).not.toHaveProperty('lowStockThreshold');
    expect(settings).not.toHaveProperty('unpaidOrderTimeoutDays');
    expect(settings).not.toHaveProperty('shippingCents');
  });
});

describe('GET /api/admin/settings', () => {
  it('answers 401 to a visitor, 403 to a customer and the stored settings to an admin', async () => {
    expect((await shop.app.inject({ method: 'GET', url: '/api/admin/settings' })).statusCode).toBe(401);
    const refused = await as(shop.app, customer)({ method: 'GET', url: '/api/admin/settings' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<ApiErrorBody>()).toEqual({ message: 'This needs an admin account.' });
    expect(await storedSettings()).toMatchObject({ siteName: 'Mango Shop', shippingCents: 1200, lowStockThreshold: 5 });
  });
});

describe('PUT /api/admin/settings', () => {
  it('answers 401 to a visitor and 403 to a customer, and changes nothing', async () => {
    const next = { ...(await storedSettings()), siteName: 'Hacked Shop' };
    const visitor = await putSettings(undefined, next);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json<ApiErrorBody>()).toEqual({ message: 'Please sign in to continue.' });
    const signedIn = await putSettings(customer, next);
    expect(signedIn.statusCode).toBe(403);
    expect(signedIn.json<ApiErrorBody>()).toEqual({ message: 'This needs an admin account.' });
    expect((await publicSettings()).siteName).toBe('Mango Shop');
  });

  it('saves the whole settings object for an admin, and GET /api/settings shows it at once', async () => {
    const next: StoredSettings = { ...(await storedSettings()), openingTime: '08:30', closingTime: '18:00', daysOpen: { Mon: true, Tue: true, Wed: true, Thu: true, Fri: true, Sat: true, Sun: true }, analytics: { gaTrackingId: 'G-ABC1234', metaPixelId: '1234567890' } };
    const response = await putSettings(admin, next);
    expect(response.statusCode).toBe(200);
    expect(response.json<StoredSettings>()).toEqual(next);
    expect(await publicSettings()).toMatchObject({ openingTime: '08:30', closingTime: '18:00', daysOpen: next.daysOpen, analytics: next.analytics });
  });

  it.each([
    ['openingTime', 'openingTime', '9am', 'Use 24-hour HH:MM'],
    ['closingTime', 'closingTime', '24:00', 'Use 24-hour HH:MM'],
    ['siteName', 'siteName', 'M', 'Site name is required'],
    ['a social link', 'socialMedia.facebook', 'http://facebook.com/mango', 'Link must start with https://'],
    ['a GA4 id', 'analytics.gaTrackingId', 'UA-12345-1', 'A GA4 id looks like G-XXXXXXX'],
    ['a pixel id', 'analytics.metaPixelId', 'pixel', 'A Meta pixel id is digits only'],
    ['shipping', 'shippingCents', -100, 'Shipping cannot be negative'],
    ['shipping in part cents', 'shippingCents', 12.5, 'Shipping must be whole cents'],
    ['GST number', 'gstNumber', '1234', 'A GST number looks like 123-456-789'],
    ['bank account number', 'bankTransfer.accountNumber', '12 3456 78', 'A New Zealand account number looks like 12-3456-0123456-00'],
    ['unpaid-order timeout', 'unpaidOrderTimeoutDays', 0, 'At least 1 day'],
    ['low-stock threshold', 'lowStockThreshold', 2.5, 'Enter a whole number of boxes'],
    ['closing time before opening', 'closingTime', '08:00', 'Closing time must be after opening time'],
    ['opening time without closing', 'closingTime', null, 'Give both opening and closing times, or neither'],
  ])('refuses a bad %s with 400 and a field message', async (_label, path, value, message) => {
    const current = await storedSettings();
    const [top, inner] = path.split('.') as [keyof StoredSettings, string | undefined];
    const next = inner ? { ...current, [top]: { ...(current[top] as object), [inner]: value } } : { ...current, [top]: value };
    const response = await putSettings(admin, next);
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>().fieldErrors?.[path]).toBe(message);
    expect(await storedSettings()).toEqual(current);
  });

  it('accepts New Zealand GST and bank account numbers, and no opening hours at all', async () => {
    const current = await storedSettings();
    const next: StoredSettings = { ...current, gstNumber: '123-456-789', bankTransfer: { ...current.bankTransfer, accountNumber: '12-3456-0123456-00' }, openingTime: null, closingTime: null };
    expect((await putSettings(admin, next)).statusCode).toBe(200);
    expect(await publicSettings()).toMatchObject({ gstNumber: '123-456-789', openingTime: null, closingTime: null });
    expect((await putSettings(admin, current)).statusCode).toBe(200);
  });

  it('refuses a partial object and an unknown field', async () => {
    const current = await storedSettings();
    const { daysOpen: _missing, ...partial } = current;
    expect((await putSettings(admin, partial)).statusCode).toBe(400);
    const unknown = await putSettings(admin, { ...current, isAdmin: true });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<ApiErrorBody>().fieldErrors).toEqual({ isAdmin: 'Unknown field: isAdmin' });
  });
});

describe('maintenance mode', () => {
  const message = 'Back at noon with fresh Alphonsos.';
  const setMaintenance = async (enabled: boolean, text = message) => {
    const response = await putSettings(admin, { ...(await storedSettings()), maintenance: { enabled, message: text } });
    expect(response.statusCode).toBe(200);
  };
  const addToCart = async (cookie: string) => {
    const me = (await as(shop.app, cookie)({ method: 'GET', url: '/api/me' })).json<{ id: number }>();
    return as(shop.app, cookie)({ method: 'POST', url: `/api/cart/${me.id}/items`, payload: { productId: 1, quantity: 1 } });
  };

  it('shows in both forms of GET /api/settings once an admin turns it on', async () => {
    await setMaintenance(true);
    expect(await publicSettings()).toMatchObject({ maintenance: { enabled: true, message }, maintenance_mode_enabled: true, maintenance_message: message });
  });

  it("answers 503 with the maintenance message to a visitor's registration", async () => {
    const response = await shop.app.inject({ method: 'POST', url: '/api/register', payload: { ...shopperDefaults, username: 'during', email: 'during@example.nz' } });
    expect(response.statusCode).toBe(503);
    expect(response.json<ApiErrorBody>()).toEqual({ message });
  });

  it("answers 503 to a customer's cart change, while reads stay open", async () => {
    const response = await addToCart(customer);
    expect(response.statusCode).toBe(503);
    expect(response.json<ApiErrorBody>()).toEqual({ message });
    expect((await shop.app.inject({ method: 'GET', url: '/api/products' })).statusCode).toBe(200);
    expect((await shop.app.inject({ method: 'GET', url: '/api/products/1' })).statusCode).toBe(200);
    expect((await as(shop.app, customer)({ method: 'GET', url: '/api/me' })).statusCode).toBe(200);
    const me = (await as(shop.app, customer)({ method: 'GET', url: '/api/me' })).json<{ id: number }>();
    expect((await as(shop.app, customer)({ method: 'GET', url: `/api/cart/${me.id}` })).statusCode).toBe(200);
  });

  it('lets anyone sign in and sign out, so staff can get in', async () => {
    const login = await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email: shopperDefaults.email, password: shopperDefaults.password } });
    expect(login.statusCode).toBe(200);
    expect(login.json<{ username: string }>().username).toBe(shopperDefaults.username);
    const cookie = `mango_session=${login.cookies.find((c) => c.name === 'mango_session')!.value}`;
    const logout = await as(shop.app, cookie)({ method: 'POST', url: '/api/logout' });
    expect(logout.statusCode).toBe(200);
    expect(logout.json<ApiErrorBody>()).toEqual({ message: 'You have been successfully logged out' });
  });

  it('blocks a state change sent to a percent-encoded /api path as well', async () => {
    const response = await shop.app.inject({ method: 'POST', url: '/%61pi/register', payload: { ...shopperDefaults, username: 'sneakin', email: 'sneakin@example.nz' } });
    expect(response.statusCode).toBe(503);
    expect(response.json<ApiErrorBody>()).toEqual({ message });
  });

  it('lets an admin keep writing', async () => {
    expect((await addToCart(admin)).statusCode).toBe(200);
    const hidden = await as(shop.app, admin)({ method: 'PUT', url: '/api/products/2', payload: { isHidden: false } });
    expect(hidden.statusCode).toBe(200);
  });

  it('uses the default message when the stored one is empty', async () => {
    await setMaintenance(true, '');
    expect((await publicSettings()).maintenance_message).toBe(shopRules.maintenanceDefaultMessage);
    const response = await addToCart(customer);
    expect(response.statusCode).toBe(503);
    expect(response.json<ApiErrorBody>()).toEqual({ message: shopRules.maintenanceDefaultMessage });
  });

  it('restores every change once turned off', async () => {
    await setMaintenance(false);
    expect(await publicSettings()).toMatchObject({ maintenance: { enabled: false }, maintenance_mode_enabled: false });
    expect((await addToCart(customer)).statusCode).toBe(200);
    const registered = await shop.app.inject({ method: 'POST', url: '/api/register', payload: { ...shopperDefaults, username: 'after', email: 'after@example.nz' } });
    expect(registered.statusCode).toBe(201);
  });
});

describe('settings stored under older rules', () => {
  it('keeps every valid setting and replaces only the values today\'s rules refuse', () => {
    const stored = {
      ...defaultSettings,
      siteName: 'Mango Orchard',
      gstNumber: '123456789',
      shippingCents: 1500,
      maintenance: { enabled: true, message: 'Back soon' },
      bankTransfer: { accountName: 'Orchard Ltd', accountNumber: '12 3456 0123456 00', bankName: 'Kiwi Bank' },
      openingTime: '18:00',
      closingTime: '09:00',
    };
    expect(readStoredSettings(stored)).toEqual({
      ...stored,
      gstNumber: '',
      bankTransfer: { accountName: 'Orchard Ltd', accountNumber: '', bankName: 'Kiwi Bank' },
      openingTime: defaultSettings.openingTime,
      closingTime: defaultSettings.closingTime,
    });
    expect(readStoredSettings(undefined)).toEqual(defaultSettings);
    expect(readStoredSettings({ siteName: 'Mango Orchard' })).toEqual({ ...defaultSettings, siteName: 'Mango Orchard' });
  });
});
