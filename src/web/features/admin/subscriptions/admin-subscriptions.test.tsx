import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { AdminSubscriptionDetail, AdminSubscriptionSummary, SubscriptionForecast } from '../../../../contracts/subscriptions';
import { QueryClientProvider } from '../../../lib/query';
import { makeQueryClient } from '../../../lib/query-client';
import { DashboardSeasonBoxes } from '../dashboard/dashboard-season-boxes';
import { AdminSubscriptions } from './admin-subscriptions';
import { runResultText } from './season-box-words';
import { SubscriptionDetailView } from './subscription-detail';
import { type AdminSubscriptionPage, forecastKey, staffSubscriptionKey, staffSubscriptionsKey, stopStateKey } from './subscriptions-api';

const summary: AdminSubscriptionSummary = {
  id: 12,
  status: 'active',
  customer: { id: 3, name: 'Aroha Ngata', email: 'aroha@example.nz' },
  productId: 5,
  productName: 'Kensington Pride',
  quantity: 2,
  every: 'week',
  weekday: 'Fri',
  paymentMethod: 'bank_transfer',
  nextDeliveryDate: '2027-03-19',
  createdAt: '2027-02-20T00:00:00.000Z',
};

const detail: AdminSubscriptionDetail = {
  ...summary,
  subscription: {
    id: 12,
    status: 'active',
    product: { id: 5, name: 'Kensington Pride', imageUrl: '/images/kp.svg', priceCents: 5000, subscriberDiscountPercent: 10 },
    quantity: 2,
    every: 'week',
    weekday: 'Fri',
    firstDeliveryDate: '2027-03-05',
    lastDeliveryDate: null,
    paymentMethod: 'bank_transfer',
    shipping: { name: 'Aroha Ngata', phone: '021 555 0101', street: '12 Queen Street', suburb: '', city: 'Auckland', postcode: '1010', region: 'Auckland', deliveryInstructions: '' },
    pausedUntil: null,
    unitPriceCents: 4500,
    deliveryCents: 1200,
    createdAt: '2027-02-20T00:00:00.000Z',
    coming: [
      {
        date: '2027-03-19',
        dispatchDate: '2027-03-18',
        cutoffAt: '2027-03-16T23:00:00.000Z',
        state: 'scheduled',
        productId: 5,
        productName: 'Kensington Pride',
        quantity: 2,
        totalCents: 10200,
        changedForThisBox: false,
        open: true,
        note: null,
        orderNumber: null,
      },
    ],
  },
  history: [
    { date: '2027-03-12', state: 'skipped', note: 'Skipped by the shopper', orderNumber: null, orderStatus: null, totalCents: null },
    { date: '2027-03-05', state: 'ordered', note: null, orderNumber: 'MS-1001', orderStatus: 'paid', totalCents: 10200 },
  ],
};

const forecast: SubscriptionForecast = {
  from: '2027-03-01',
  to: '2027-04-25',
  dates: ['2027-03-05', '2027-03-12'],
  products: [
    { productId: 5, productName: 'Kensington Pride', boxes: { '2027-03-05': 2, '2027-03-12': 3 }, total: 5 },
    { productId: 8, productName: 'Keitt', boxes: { '2027-03-12': 1 }, total: 1 },
  ],
};

const list: AdminSubscriptionPage = { subscriptions: [summary], total: 1, page: 1, pageSize: 50, counts: { awaiting_card: 0, active: 1, paused: 0, cancelled: 0, ended: 0 } };

function render(node: React.ReactNode, fill: (client: ReturnType<typeof makeQueryClient>) => void, path = '/admin/subscriptions') {
  const client = makeQueryClient();
  fill(client);
  return renderToString(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>{node}</MemoryRouter>
    </QueryClientProvider>,
  )
    .replaceAll('<!-- -->', '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

describe('the season boxes screen', () => {
  it('lists each season box with its customer, schedule, payment and next box, and the forecast with its totals', () => {
    const text = render(<AdminSubscriptions />, (client) => {
      client.setQueryData(staffSubscriptionsKey('all', 1), list);
      client.setQueryData(forecastKey, forecast);
      client.setQueryData(stopStateKey, { stopped: false, since: null });
    });
    expect(text).toContain('Aroha Ngata : season box 12 aroha@example.nz');
    expect(text).toContain('Kensington Pride × 2 Every week on Friday Bank transfer Fri, 19 March 2027 Active');
    expect(text).toContain('All 1 Active 1 Paused 0 Cancelled 0 Season ended 0');
    expect(text).not.toContain('Waiting for a card');
    expect(text).toContain('Kensington Pride Product 5 2 3 5');
    expect(text).toContain('Keitt Product 8 0 1 1');
    expect(text).toContain('All products 2 4 6');
    expect(text).toContain('Runs are on');
  });

  it('says when no box comes in the forecast’s eight weeks', () => {
    const text = render(<AdminSubscriptions />, (client) => {
      client.setQueryData(staffSubscriptionsKey('all', 1), list);
      client.setQueryData(forecastKey, { ...forecast, dates: [], products: [] });
      client.setQueryData(stopStateKey, { stopped: true, since: '2027-03-01T01:00:00.000Z' });
    });
    expect(text).toContain('No season boxes in the next eight weeks.');
    expect(text).toContain('Stopped since 1 Mar 2027, 2:00 pm');
    expect(text).toContain('Turn back on');
    expect(text).toContain('Season boxes are stopped: turn them back on before starting a run.');
  });

  it('opens a season box at its coming boxes and its history, each order linked to the orders screen', () => {
    const client = makeQueryClient();
    client.setQueryData(staffSubscriptionKey(detail.id), detail);
    const html = renderToString(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <SubscriptionDetailView id={detail.id} onBack={() => {}} />
        </MemoryRouter>
      </QueryClientProvider>,
    ).replaceAll('<!-- -->', '');
    expect(html).toContain('href="/admin/orders?order=MS-1001"');
    const text = html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('Fri, 19 March 2027 To come Kensington Pride × 2 $102.00 17 Mar 2027, 12:00 pm');
    expect(text).toContain('Fri, 12 March 2027 Skipped None Skipped by the shopper');
    expect(text).toContain('Fri, 5 March 2027 Order made Paid MS-1001 $102.00');
  });

  it('tells staff what a run early did', () => {
    expect(runResultText({ deliveryDate: '2027-03-19', ordered: 3, missed: 1, alreadyDone: 2, stopped: false })).toBe('Made 3 orders; 1 box short of stock; 2 already done');
    expect(runResultText({ deliveryDate: '2027-03-19', ordered: 1, missed: 0, alreadyDone: 0, stopped: false })).toBe('Made 1 order; 0 boxes short of stock; 0 already done');
  });
});

describe('the dashboard', () => {
  it('shows that season boxes are stopped only while they are', () => {
    const stopped = render(<DashboardSeasonBoxes />, (client) => client.setQueryData(stopStateKey, { stopped: true, since: '2027-03-01T01:00:00.000Z' }), '/admin');
    expect(stopped).toContain('Season boxes are stopped Since 1 Mar 2027, 2:00 pm.');
    expect(render(<DashboardSeasonBoxes />, (client) => client.setQueryData(stopStateKey, { stopped: false, since: null }), '/admin').trim()).toBe('');
  });
});
