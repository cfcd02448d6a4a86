import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDeliverySettings, type DeliveryDayOption, type DeliverySettings } from '../../../contracts/delivery';
import { auditLog, dispatchDays } from '../../db/schema';
import { quickShopper } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop({ deliveryCapacity: null })));
afterAll(async () => shop?.close());

const datesFor = async (region: string, boxes = 1) => {
  const response = await shop.app.inject({ method: 'GET', url: `/api/delivery/dates?region=${encodeURIComponent(region)}&boxes=${boxes}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ dates: DeliveryDayOption[] }>().dates;
};
const save = (settings: DeliverySettings) => staff({ method: 'PUT', url: '/api/admin/delivery', payload: settings });

describe('GET /api/delivery/dates', () => {
  it("offers a region's next dates, at least five of them available", async () => {
    const dates = await datesFor("Hawke's Bay");
    expect(dates.filter((one) => one.state.available).length).toBeGreaterThanOrEqual(5);
    for (const one of dates) expect(one.date > one.dispatchDate).toBe(true);
  });

  it('refuses a region that is not one of New Zealand’s, and a bad box count', async () => {
    const unknown = await shop.app.inject({ method: 'GET', url: '/api/delivery/dates?region=Narnia' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fieldErrors).toMatchObject({ region: 'Choose a region' });
    const boxes = await shop.app.inject({ method: 'GET', url: '/api/delivery/dates?region=Otago&boxes=0' });
    expect(boxes.json().fieldErrors).toMatchObject({ boxes: 'Boxes must be at least 1' });
  });

  it('greys out a dispatch day that is full', async () => {
    const [first] = (await datesFor('Auckland')).filter((one) => one.state.available);
    await shop.database.db.insert(dispatchDays).values({ date: first!.dispatchDate, bookedBoxes: 40 }).onConflictDoUpdate({ target: dispatchDays.date, set: { bookedBoxes: 40 } });
    try {
      expect((await datesFor('Auckland')).find((one) => one.date === first!.date)?.state).toEqual({ available: false, reason: 'Fully booked' });
    } finally {
      await shop.database.db.delete(dispatchDays).where(eq(dispatchDays.date, first!.dispatchDate));
    }
  });
});

describe('/api/admin/delivery', () => {
  it('starts from the defaults, and a closed date shows in the offered dates at once', async () => {
    expect((await staff({ method: 'GET', url: '/api/admin/delivery' })).json()).toEqual(defaultDeliverySettings);
    const [first] = (await datesFor('Canterbury')).filter((one) => one.state.available);
    const saved = await save({ ...defaultDeliverySettings, closedDates: [{ date: first!.date, reason: 'Shipment delayed' }] });
    expect(saved.statusCode, saved.body).toBe(200);
    try {
      expect((await datesFor('Canterbury')).find((one) => one.date === first!.date)?.state).toEqual({ available: false, reason: 'Closed: Shipment delayed' });
      const audited = await shop.database.db.select().from(auditLog).where(eq(auditLog.action, 'delivery.update'));
      expect(audited).toHaveLength(1);
    } finally {
      expect((await save(defaultDeliverySettings)).statusCode).toBe(200);
    }
  });

  it("follows a region's new weekdays, and offers nothing where the shop does not deliver", async () => {
    const regions = { ...defaultDeliverySettings.regions, Southland: { days: [], leadDays: 2 }, Northland: { days: ['Wed' as const], leadDays: 1 } };
    expect((await save({ ...defaultDeliverySettings, regions })).statusCode).toBe(200);
    try {
      expect(await datesFor('Southland')).toEqual([]);
      const northland = await datesFor('Northland');
      expect(northland.length).toBeGreaterThan(0);
      for (const one of northland) expect(new Date(`${one.date}T00:00:00Z`).getUTCDay()).toBe(3);
    } finally {
      await save(defaultDeliverySettings);
    }
  });

  it('refuses bad settings with field messages, and anyone but staff', async () => {
    const bad = await save({ ...defaultDeliverySettings, cutoffTime: '25:00' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toMatchObject({ cutoffTime: 'Use 24-hour HH:MM' });
    const lead = await save({ ...defaultDeliverySettings, regions: { ...defaultDeliverySettings.regions, Otago: { days: ['Wed'], leadDays: 9 } } });
    expect(lead.statusCode).toBe(400);
    expect(JSON.stringify(lead.json().fieldErrors)).toContain('Lead time is at most 5 days');
    const twice = await save({ ...defaultDeliverySettings, closedDates: [{ date: '2027-01-05', reason: 'A' }, { date: '2027-01-05', reason: 'B' }] });
    expect(twice.statusCode).toBe(400);
    const shopper = await quickShopper(shop, 'nosy');
    expect((await shopper.call({ method: 'PUT', url: '/api/admin/delivery', payload: defaultDeliverySettings })).statusCode).toBe(403);
    expect((await shop.app.inject({ method: 'GET', url: '/api/admin/delivery' })).statusCode).toBe(401);
    expect((await staff({ method: 'GET', url: '/api/admin/delivery' })).json()).toEqual(defaultDeliverySettings);
  });
});
