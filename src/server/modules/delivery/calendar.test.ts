import { describe, expect, it } from 'vitest';
import { defaultDeliverySettings, type DeliverySettings, looksRural } from '../../../contracts/delivery';
import type { NzRegion } from '../../../contracts/order';
import { deliveryOptions, firstPackingDay, holidayIn, nzTimeOfDay } from './calendar';

const nothingBooked = new Map<string, number>();

/** The options for one box to `region` at `now`, as [date, reason or 'ok']. */
function offered(region: NzRegion, now: string, settings: DeliverySettings = defaultDeliverySettings, booked = nothingBooked, boxes = 1, wanted = 3) {
  return deliveryOptions({ settings, region, now: new Date(now), booked, boxes, wanted }).map((option) => [option.date, option.state.available ? 'ok' : option.state.reason]);
}

describe('the first day boxes can be packed', () => {
  it('is today before the cut-off and the next day from it, in New Zealand time', () => {
    // Tuesday 2 March 2027, 11:59 and 12:00 in Auckland (NZDT, UTC+13).
    expect(offered('Auckland', '2027-03-01T22:59:00Z')[0]).toEqual(['2027-03-03', 'ok']);
    expect(offered('Auckland', '2027-03-01T23:00:00Z')[0]).toEqual(['2027-03-04', 'ok']);
    expect(offered('Auckland', '2027-03-01T23:00:00Z', { ...defaultDeliverySettings, cutoffTime: '15:30' })[0]).toEqual(['2027-03-03', 'ok']);
  });

  it('follows daylight saving as it starts and ends', () => {
    // Saving starts on Sunday 26 September 2027: 23:30 UTC on the 26th is 12:30 on Monday, past the cut-off.
    expect(nzTimeOfDay(new Date('2027-09-26T23:30:00Z'))).toBe('12:30');
    expect(firstPackingDay(new Date('2027-09-26T23:30:00Z'), '12:00')).toBe('2027-09-28');
    expect(offered('Auckland', '2027-09-26T23:30:00Z')[0]).toEqual(['2027-09-29', 'ok']);
    // It ends on Sunday 4 April 2027: 23:30 UTC on the 4th is 11:30 on Monday, before it.
    expect(nzTimeOfDay(new Date('2027-04-04T23:30:00Z'))).toBe('11:30');
    expect(offered('Auckland', '2027-04-04T23:30:00Z')[0]).toEqual(['2027-04-06', 'ok']);
  });
});

describe('delivery dates', () => {
  it('never leave fruit on the road over a weekend: a Friday order goes on Monday', () => {
    // Friday 5 March 2027, 10:00: nothing reaches the North Island on Saturday, so Tuesday is first.
    expect(offered('Auckland', '2027-03-04T21:00:00Z')).toEqual([
      ['2027-03-09', 'ok'],
      ['2027-03-10', 'ok'],
      ['2027-03-11', 'ok'],
    ]);
    // The South Island is two days away: dispatched Monday, there on Wednesday.
    expect(offered('Canterbury', '2027-03-04T21:00:00Z')[0]).toEqual(['2027-03-10', 'ok']);
  });

  it('skip Waitangi Day as it falls on a Saturday, through its Monday substitute', () => {
    // Friday 5 February 2027, 09:00.
    expect(offered('Wellington', '2027-02-04T20:00:00Z').slice(0, 2)).toEqual([
      ['2027-02-09', 'No dispatch on Waitangi Day (substitute day)'],
      ['2027-02-10', 'ok'],
    ]);
  });

  it('skip Good Friday and Easter Monday', () => {
    // Thursday 25 March 2027, 09:00.
    expect(offered('Auckland', '2027-03-24T20:00:00Z').slice(0, 3)).toEqual([
      ['2027-03-26', 'Good Friday'],
      ['2027-03-30', 'No dispatch on Easter Monday'],
      ['2027-03-31', 'ok'],
    ]);
    expect(offered('Otago', '2027-03-24T20:00:00Z').slice(0, 2)).toEqual([
      ['2027-03-31', 'No dispatch on Easter Monday'],
      ['2027-04-01', 'ok'],
    ]);
  });

  it('skip Matariki', () => {
    // Thursday 24 June 2027, 09:00 (NZST, UTC+12).
    expect(offered('Auckland', '2027-06-23T21:00:00Z')[0]).toEqual(['2027-06-25', 'Matariki']);
  });

  it("skip a region's own anniversary day, and the packing region's for dispatch", () => {
    expect(holidayIn('Canterbury', '2027-11-12')).toBe('Christchurch Show Day');
    expect(holidayIn('Auckland', '2027-11-12')).toBeNull();
    // Monday 8 November 2027, 09:00: Friday the 12th is a holiday in Canterbury only.
    expect(offered('Canterbury', '2027-11-07T20:00:00Z').find(([date]) => date === '2027-11-12')).toEqual(['2027-11-12', 'Christchurch Show Day']);
    expect(offered('Auckland', '2027-11-07T20:00:00Z', defaultDeliverySettings, nothingBooked, 1, 5).find(([date]) => date === '2027-11-12')).toEqual(['2027-11-12', 'ok']);
    // Auckland Anniversary Day (Monday 1 February 2027): nothing is packed, so no Tuesday delivery anywhere.
    expect(offered('Waikato', '2027-01-28T20:00:00Z').find(([date]) => date === '2027-02-02')).toEqual(['2027-02-02', 'No dispatch on Provincial anniversary day']);
  });

  it('grey out dates staff close and days that are fully booked', () => {
    const closed = { ...defaultDeliverySettings, closedDates: [{ date: '2027-03-03', reason: 'Shipment delayed' }] };
    expect(offered('Auckland', '2027-03-01T22:00:00Z', closed)[0]).toEqual(['2027-03-03', 'Closed: Shipment delayed']);
    // Tuesday's packing has 39 of 40 boxes booked: one more fits, two do not.
    const booked = new Map([['2027-03-02', 39]]);
    expect(offered('Auckland', '2027-03-01T22:00:00Z', defaultDeliverySettings, booked, 1)[0]).toEqual(['2027-03-03', 'ok']);
    expect(offered('Auckland', '2027-03-01T22:00:00Z', defaultDeliverySettings, booked, 2)[0]).toEqual(['2027-03-03', 'Fully booked']);
    const smallDay = { ...defaultDeliverySettings, capacityOverrides: [{ date: '2027-03-03', boxes: 0 }] };
    expect(offered('Auckland', '2027-03-01T22:00:00Z', smallDay).slice(0, 2)).toEqual([
      ['2027-03-03', 'ok'],
      ['2027-03-04', 'Fully booked'],
    ]);
  });

  it('offer nothing to a region the shop does not deliver to', () => {
    const noWestCoast = { ...defaultDeliverySettings, regions: { ...defaultDeliverySettings.regions, 'West Coast': { days: [], leadDays: 2 } } };
    expect(offered('West Coast', '2027-03-01T22:00:00Z', noWestCoast)).toEqual([]);
  });
});

describe('rural addresses', () => {
  it('are told by a Rural Delivery number', () => {
    expect(looksRural('1020 Kaipara Coast Highway', 'RD 4')).toBe(true);
    expect(looksRural('12 Hill Road, R.D. 2')).toBe(true);
    expect(looksRural('Matakana RD2')).toBe(true);
    expect(looksRural('12 Third Street', 'Ponsonby')).toBe(false);
    expect(looksRural('5 Oxford Rd')).toBe(false);
    expect(looksRural('RDX Building, 4 Queen Street')).toBe(false);
  });
});
