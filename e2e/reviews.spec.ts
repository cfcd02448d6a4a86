import sharp from 'sharp';
import { reviewFormPath, reviewInviteMail } from '../src/server/modules/reviews/invites';
import { expect, test } from './fixtures';
import { shootAtBothWidths } from './screenshots';
import { admin, adminApi, createProduct, paidOrder, registerShopper, signIn } from './shopper';

interface JsonLdProduct {
  '@type': string;
  aggregateRating?: { ratingValue: number; reviewCount: number };
  review?: Array<{ author: { name: string }; reviewRating: { ratingValue: number }; reviewBody: string }>;
}

test('a verified buyer follows the review e-mail to write a review with a photo; staff approve the photo and reply; the page shows the verified average and the reviews', async ({ page, browser, request, baseURL }) => {
  test.slow();
  const api = await adminApi(baseURL!);
  const stamp = Date.now().toString(36);
  const name = `Review Alphonso ${stamp}`;
  const productId = await createProduct(api, { name, description: 'A variety made for the review journey.', price: 64, imageUrl: '/images/products/alphonso.svg', category: 'Classic', stock: 10, rating: 4.8 });
  const deliver = async (number: string) => {
    for (const status of ['packed', 'shipped', 'delivered']) {
      const answer = await api.post(`/api/admin/orders/${number}/status`, { data: { status, ...(status === 'shipped' ? { trackingNumber: 'NZP555777', carrier: 'nz_post' } : {}) } });
      expect(answer.status(), await answer.text()).toBe(200);
    }
  };
  // An earlier buyer's review, written through the API: four stars.
  const earlier = await paidOrder(request, api, productId, 1, `reviewfirst${stamp}`);
  await deliver(earlier.number);
  expect((await request.post('/api/login', { data: earlier })).status()).toBe(200);
  const first = await request.post(`/api/products/${productId}/reviews`, { multipart: { review: JSON.stringify({ rating: 4, title: 'Worth the wait', body: 'Ripened in four days on the bench. Sweet, with no strings at all.' }) } });
  expect(first.status(), await first.text()).toBe(201);
  await request.post('/api/logout');
  // Someone who never bought it is told who may review.
  const stranger = await registerShopper(request, `reviewstranger${stamp}`);

  const buyer = await paidOrder(request, api, productId, 1, `reviewbuyer${stamp}`);
  await deliver(buyer.number);

  // The e-mail, as the shop writes it, opened as the shopper would: its button goes to the form.
  const mail = reviewInviteMail({ to: buyer.email, firstName: 'Tama', orderNumber: buyer.number, products: [{ name, url: `${baseURL}${reviewFormPath(productId)}` }], optOutUrl: `${baseURL}/api/review-mail/opt-out?token=x`, siteName: 'Mango Shop' });
  await page.setContent(mail.html!);
  const button = page.getByRole('link', { name: `Review ${name}` });
  await shootAtBothWidths(page, 'review-invite-mail');
  await page.goto((await button.getAttribute('href'))!);
  await expect(page).toHaveURL(new RegExp(`/product/${productId}\\?review=write#write-review$`));
  const writeBox = page.locator('#write-review');
  await writeBox.getByRole('link', { name: 'Sign in to write a review' }).click();
  await page.getByLabel('Email').fill(buyer.email);
  await page.getByLabel('Password', { exact: true }).fill(buyer.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${productId}\\?review=write#write-review$`));

  const form = page.getByRole('form', { name: 'Write a review' });
  // The rating and the words are needed, each said beside its field.
  await form.getByRole('button', { name: 'Post review' }).click();
  await expect(form.getByText('Choose a rating from 1 to 5 stars')).toBeVisible();
  await expect(form.getByText('Tell other shoppers about the mangoes')).toBeVisible();
  await form.locator('label').filter({ has: page.getByRole('radio', { name: '5 stars: Excellent' }) }).click();
  await expect(form.getByRole('radio', { name: '5 stars: Excellent' })).toBeChecked();
  await form.getByLabel('Title (optional)').fill('The best of the season');
  await form.getByLabel('Your review').fill('Every mango in the box ripened within a week, golden and sweet. The kids ate them over the sink.');
  const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#f2a93b' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'PhoneMaker', Artist: 'Tama at 21 Lambton Quay' } })
    .toBuffer();
  await form.getByLabel('Photos (optional, up to 3)').setInputFiles({ name: 'mangoes.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(form.getByRole('img', { name: 'Chosen photo 1' })).toBeVisible();
  await shootAtBothWidths(page, 'review-form', form);
  await form.getByRole('button', { name: 'Post review' }).click();
  await expect(page.getByText('Thank you for your review').first()).toBeVisible();
  await expect(writeBox.getByText('Your photo appears once we have checked it.')).toBeVisible();
  await expect(writeBox.getByRole('img', { name: 'Photo 1 from your review' })).toBeVisible();
  // From the delivered order's page, a line leads straight to its review.
  await page.goto(`/account/orders/${buyer.number}`);
  await page.getByRole('link', { name: 'Review these mangoes' }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${productId}\\?review=write#write-review$`));
  await expect(writeBox.getByRole('heading', { name: 'Your review' })).toBeInViewport();
  // Published at once, without the photo still waiting.
  const published = (await (await request.get(`/api/products/${productId}/reviews`)).json()) as { average: number; count: number; reviews: Array<{ photos: unknown[] }> };
  expect(published).toMatchObject({ average: 4.5, count: 2 });
  expect(published.reviews[0]!.photos).toEqual([]);

  // Staff check the photo and reply in public.
  const staffContext = await browser.newContext();
  const staffPage = await staffContext.newPage();
  await signIn(staffPage, admin.email, admin.password);
  await staffPage.goto('/admin/reviews?filter=attention');
  const item = staffPage.getByRole('listitem', { name: `Review by Tama Hohaia of ${name}` }).first();
  await expect(item).toContainText('Waiting for a check');
  await item.getByRole('button', { name: 'Hide' }).click();
  await expect(item.getByRole('button', { name: 'Hide review' })).toBeDisabled();
  await item.getByRole('button', { name: 'Cancel' }).click();
  await item.getByRole('button', { name: 'Approve' }).click();
  await expect(staffPage.getByText('Photo approved').first()).toBeVisible();
  await staffPage.goto('/admin/reviews');
  const again = staffPage.getByRole('listitem', { name: `Review by Tama Hohaia of ${name}` }).first();
  await again.getByRole('button', { name: 'Reply', exact: true }).click();
  await again.getByLabel('Reply in public').fill('Thank you, Tama! The next Alphonsos land in a fortnight.');
  await again.getByRole('button', { name: 'Save reply' }).click();
  await expect(staffPage.getByText('Reply saved').first()).toBeVisible();
  await shootAtBothWidths(staffPage, 'admin-reviews');
  await staffContext.close();

  // Anyone now sees the verified average beside the catalogue's rating, the review with its photo and the reply.
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(`/product/${productId}`);
  await expect(visitorPage.getByRole('link', { name: '4.5 from 2 verified buyers' })).toBeVisible();
  await expect(visitorPage.getByText('4.8').first()).toBeVisible();
  const section = visitorPage.getByRole('region', { name: 'Reviews from verified buyers' });
  const review = section.getByRole('article', { name: 'Review by Tama H.' }).filter({ hasText: 'The best of the season' });
  await expect(review).toContainText('The best of the season');
  await expect(review.getByRole('img', { name: /Photo 1 from Tama H\./ })).toBeVisible();
  await expect(review).toContainText('Thank you, Tama! The next Alphonsos land in a fortnight.');
  await expect(section.getByRole('link', { name: 'Sign in to write a review' })).toBeVisible();
  await shootAtBothWidths(visitorPage, 'product-reviews', section);
  const jsonLd = (await visitorPage.locator('script[type="application/ld+json"]').allTextContents()).map((text) => JSON.parse(text) as JsonLdProduct).find((data) => data['@type'] === 'Product')!;
  expect(jsonLd.aggregateRating).toMatchObject({ ratingValue: 4.5, reviewCount: 2 });
  expect(jsonLd.review!.map((one) => [one.author.name, one.reviewRating.ratingValue])).toEqual([
    ['Tama H.', 5],
    ['Tama H.', 4],
  ]);
  await visitor.close();

  // The stranger, signed in on a browser of their own, is told who may review, and has no form.
  const strangerContext = await browser.newContext();
  const strangerPage = await strangerContext.newPage();
  await signIn(strangerPage, stranger.email, stranger.password);
  await strangerPage.goto(`/product/${productId}?review=write#write-review`);
  await expect(strangerPage.locator('#write-review')).toContainText('Only shoppers whose order with this mango has been delivered or collected can review it.');
  await expect(strangerPage.getByRole('form', { name: 'Write a review' })).toHaveCount(0);
  await strangerContext.close();
});
