/**
 * Seed catalogue for Mango Shop: products, testimonials, farm gallery banners
 * and the static content pages (Markdown files live in ./content/).
 *
 * Prices are NZD cents including 15% GST. Ratings are stored in tenths
 * (48 means 4.8 stars). Pre-orders are for the 2027 Indian season.
 */

export interface ProductSeed {
  name: string;
  description: string;
  priceCents: number;
  image: string;
  category: 'Premium' | 'Classic' | 'Organic' | 'Gift Box';
  ratingTenths: number;
  stock: number;
  isBestseller: boolean;
  isOrganic: boolean;
  isLowStock: boolean;
  isPreOrder: boolean;
  expectedAvailabilityDate: string | null;
  isHidden: boolean;
  boxInfo: string | null;
  preOrderLimit: number | null;
  /** Days from harvest until ready to eat, then days at its best. */
  ripeningDays: number;
  daysAtBest: number;
  /** Offered as a season box, with this whole-percent subscriber discount (docs/season-box.md). */
  subscribable?: boolean;
  subscriberDiscountPercent?: number;
}

export const products: ProductSeed[] = [
  {
    name: 'Alphonso Mangoes',
    description:
      'Known in India as Hapus, these Alphonsos come from family orchards around Ratnagiri and Devgad on the Konkan coast of Maharashtra. Expect saffron-gold, completely fibreless flesh with a rich, honeyed sweetness and a heady aroma. Enjoy them chilled and sliced, or blend into aamras or a mango lassi. Ripen at room temperature until fragrant and just yielding to a gentle press.',
    priceCents: 6499,
    image: 'alphonso.svg',
    category: 'Premium',
    ratingTenths: 49,
    stock: 40,
    isBestseller: true,
    isOrganic: false,
    isLowStock: false,
    isPreOrder: false,
    expectedAvailabilityDate: null,
    isHidden: false,
    boxInfo: null,
    ripeningDays: 8,
    daysAtBest: 4,
    preOrderLimit: null,
  },
  {
    name: 'Kesar Mangoes',
    description:
      'Grown organically in the foothills of the Gir forest in Saurashtra, Gujarat, Kesar is named for its saffron-coloured pulp. It is wonderfully aromatic, with smooth, almost fibreless flesh and a sweet, gently spiced finish. Kesar is the classic choice for aamras, amrakhand and kulfi. Leave at room temperature until the skin turns golden and the stem end smells sweet.',
    priceCents: 5999,
    image: 'kesar.svg',
    category: 'Premium',
    ratingTenths: 48,
    stock: 25,
    isBestseller: true,
    isOrganic: true,
    isLowStock: false,
    isPreOrder: false,
    expectedAvailabilityDate: null,
    isHidden: false,
    boxInfo: null,
    ripeningDays: 8,
    daysAtBest: 4,
    preOrderLimit: null,
  },
  {
    name: 'Banganapalli Mangoes',
    description:
      'From Banganapalle in the Kurnool district of Andhra Pradesh, these large, oval mangoes have thin golden skin and firm, fibreless yellow flesh. The flavour is clean and sweet with a gentle tang near the skin, so they are lovely sliced for lunchboxes and fruit platters. Colour is not a reliable guide: they are ready when the flesh gives slightly near the stem.',
    priceCents: 4499,
    image: 'banganapalli.svg',
    category: 'Classic',
    ratingTenths: 46,
    stock: 30,
    isBestseller: false,
    isOrganic: false,
    isLowStock: false,
    isPreOrder: false,
    expectedAvailabilityDate: null,
    isHidden: false,
    boxInfo: null,
    ripeningDays: 9,
    daysAtBest: 5,
    preOrderLimit: null,
  },
  {
    name: 'Dasheri Mangoes',
    description:
      'Dasheri comes from the orchards of Malihabad near Lucknow in Uttar Pradesh, where the variety has been grown for centuries. The elongated fruit has thin skin and soft, fibreless flesh with an intense honey sweetness and a floral aroma. Eat it fresh from the skin or spoon it over yoghurt. Once your box arrives, ripen at room temperature for two to four days.',
    priceCents: 4999,
    image: 'dasheri.svg',
    category: 'Classic',
    ratingTenths: 47,
    stock: 0,
    isBestseller: false,
    isOrganic: false,
    isLowStock: false,
    isPreOrder: true,
    expectedAvailabilityDate: '2027-06-10',
    isHidden: false,
    boxInfo: null,
    ripeningDays: 7,
    daysAtBest: 3,
    preOrderLimit: 80,
  },
  {
    name: 'Langra Mangoes',
    description:
      'A celebrated mango from Varanasi in Uttar Pradesh, Langra is famous for staying green even when perfectly ripe. Its lemon-yellow flesh is juicy and low in fibre, with a lively sweet-tangy flavour and a distinctive aroma. It is perfect sliced fresh or blended into smoothies. Judge ripeness by fragrance and a slight softness at the stem, not by the colour of the skin.',
    priceCents: 4799,
    image: 'langra.svg',
    category: 'Classic',
    ratingTenths: 45,
    stock: 0,
    isBestseller: false,
    isOrganic: false,
    isLowStock: false,
    isPreOrder: true,
    expectedAvailabilityDate: '2027-06-20',
    isHidden: false,
    boxInfo: null,
    ripeningDays: 7,
    daysAtBest: 3,
    preOrderLimit: 60,
  },
  {
    name: 'Chausa Mangoes',
    description:
      'Chausa closes the north Indian season, arriving from Uttar Pradesh after most other varieties have finished. Its bright yellow skin hides exceptionally sweet, juicy flesh with a soft, buttery texture. Traditionally the ripe fruit is gently squeezed until soft, the top is nipped off and the pulp enjoyed straight from the skin. Ripen at room temperature until fragrant and yielding.',
    priceCents: 5499,
    image: 'chausa.svg',
    category: 'Premium',
    ratingTenths: 46,
    stock: 0,
    isBestseller: false,
    isOrganic: false,
    isLowStock: false,
    isPreOrder: true,
    expectedAvailabilityDate: '2027-07-08',
    isHidden: false,
    boxInfo: null,
    ripeningDays: 8,
    daysAtBest: 4,
    preOrderLimit: null,
  },
  {
    name: 'Himsagar Mangoes',
    description:
      'A prized variety from Murshidabad and Nadia in West Bengal, Himsagar has a short season and a devoted following. The medium-sized fruit keeps a green-yellow skin when ripe and hides creamy, fibreless, deep yellow flesh that is intensely sweet and fragrant. Superb with mishti doi or simply chilled and sliced. Press gently near the stem: ripe fruit yields slightly.',
    priceCents: 5299,
    image: 'himsagar.svg',
    category: 'Classic',
    ratingTenths: 47,
    stock: 4,
    isBestseller: false,
    isOrganic: false,
    isLowStock: true,
    isPreOrder: false,
    expectedAvailabilityDate: null,
    isHidden: false,
    boxInfo: null,
    ripeningDays: 7,
    daysAtBest: 3,
    preOrderLimit: null,
  },
  {
    name: 'Totapuri Mangoes',
    description:
      'Named for its parrot-beak tip (tota means parrot), Totapuri is grown across Karnataka, Tamil Nadu and Andhra Pradesh. The firm, bright yellow flesh is refreshingly tangy-sweet and holds its shape when cut, making it ideal for salads, salsas, chutneys and pickles. Use it slightly underripe for tartness, or leave it a few extra days at room temperature for a sweeter bite.',
    priceCents: 3499,
    image: 'totapuri.svg',
    category: 'Classic',
    ratingTenths: 41,
    stock: 60,
    isBestseller: false,
    isOrganic: false,
    isLowStock: false,
    isPreOrder: false,
    expectedAvailabilityDate: null,
    isHidden: false,
    boxInfo: null,
    ripeningDays: 10,
    daysAtBest: 6,
    preOrderLimit: null,
    subscribable: true,
    subscriberDiscountPercent: 10,
  },
  {
    name: 'Neelam Mangoes',
    description:
      'A late-season favourite from Andhra Pradesh and Tamil Nadu, Neelam is a smaller mango with orange-yellow skin and a beautifully floral perfume. The deep yellow flesh is sweet, juicy and low in fibre, and the fruit keeps well once ripe. Enjoy it sliced, in milkshakes, or with a pinch of chilli and salt. Ripen at room temperature until it smells fragrant at the stem.',
    priceCents: 3999,
    image: 'neelam.svg',
    category: 'Classic',
    ratingTenths: 43,
    stock: 0,
    isBestseller: false,
    isOrganic: false,
    isLowStock: false,
    isPreOrder: false,
    expectedAvailabilityDate: null,
    isHidden: false,
    boxInfo: null,
    ripeningDays: 10,
    daysAtBest: 6,
    preOrderLimit: null,
  },
  {
    name: 'Mallika Mangoes',
    description:
      'Mallika is a Neelam and Dasheri cross developed in India in the 1970s, and ours comes from certified organic growers in southern India. The large, oblong fruit has deep orange, fibreless flesh with a honeyed sweetness and a hint of citrus. It slices cleanly, so it is excellent for desserts and platters. Ripen at room temperature, then refrigerate once it yields gently.',
    priceCents: 5699,
    image: 'mallika.svg',
    category: 'Organic',
    ratingTenths: 45,
    stock: 18,
    isBestseller: false,
    isOrganic: true,
    isLowStock: false,
    isPreOrder: false,
    expectedAvailabilityDate: null,
    isHidden: false,
    boxInfo: null,
    ripeningDays: 9,
    daysAtBest: 5,
    preOrderLimit: null,
  },
  {
    name: 'Sindoora Mangoes',
    description:
      'Named after sindoor for the vermilion blush on its skin, Sindoora is an early-season mango grown organically in Andhra Pradesh. The soft, juicy yellow flesh balances sweetness with a light tang and a fruity aroma, and it is wonderful in lassi, smoothies and mango ice cream. The red blush appears early, so wait until the fruit gives slightly under gentle pressure.',
    priceCents: 4999,
    image: 'sindoora.svg',
    category: 'Organic',
    ratingTenths: 42,
    stock: 3,
    isBestseller: false,
    isOrganic: true,
    isLowStock: true,
    isPreOrder: false,
    expectedAvailabilityDate: null,
    isHidden: false,
    boxInfo: null,
    ripeningDays: 9,
    daysAtBest: 5,
    preOrderLimit: null,
  },
  {
    name: 'Alphonso Gift Box',
    description:
      'Six hand-selected Ratnagiri Alphonsos, each cushioned in a sturdy presentation box, make a memorable gift for Mother\'s Day, birthdays, corporate thank-yous or anyone who misses the taste of home. Every fruit is chosen for its size and unblemished skin. Let them ripen at room temperature for a few days until fragrant, then chill briefly before serving.',
    priceCents: 8999,
    image: 'alphonso-gift-box.svg',
    category: 'Gift Box',
    ratingTenths: 50,
    stock: 12,
    isBestseller: true,
    isOrganic: false,
    isLowStock: false,
    isPreOrder: false,
    expectedAvailabilityDate: null,
    isHidden: false,
    boxInfo: '6 Premium Alphonso Mangoes in a Gift Box',
    ripeningDays: 8,
    daysAtBest: 4,
    preOrderLimit: null,
  },
  {
    name: 'Amrapali Mangoes',
    description:
      'Amrapali is a Dasheri and Neelam hybrid bred in India in 1971 and grown on compact trees in northern and eastern India. The small fruit has striking deep orange flesh, rich in beta-carotene, that is fibreless and very sweet. Enjoy it chilled and sliced, or blended into smoothies. Ripen at room temperature until it gives slightly at the stem end.',
    priceCents: 4699,
    image: 'amrapali.svg',
    category: 'Classic',
    ratingTenths: 44,
    stock: 10,
    isBestseller: false,
    isOrganic: false,
    isLowStock: false,
    isPreOrder: false,
    expectedAvailabilityDate: null,
    isHidden: true,
    boxInfo: null,
    ripeningDays: 8,
    daysAtBest: 4,
    preOrderLimit: null,
  },
  {
    name: 'Pairi Mangoes',
    description:
      'An early-season favourite from Gujarat and Maharashtra, Pairi is prized for its juicy, sweet-tart pulp and rosy blush. It has a little more fibre than Alphonso, which is exactly what makes it so good for aamras, the silky mango purée served with puri. Roll a ripe fruit gently between your palms to soften the pulp. Ripen at room temperature until fragrant.',
    priceCents: 4299,
    image: 'pairi.svg',
    category: 'Classic',
    ratingTenths: 44,
    stock: 22,
    isBestseller: false,
    isOrganic: false,
    isLowStock: false,
    isPreOrder: false,
    expectedAvailabilityDate: null,
    isHidden: false,
    boxInfo: '8 to 10 Mangoes per Box',
    ripeningDays: 7,
    daysAtBest: 3,
    preOrderLimit: null,
  },
];

export interface TestimonialSeed {
  content: string;
  author: string;
  ratingTenths: number;
  image: string | null;
}

export const testimonials: TestimonialSeed[] = [
  {
    content:
      'The Alphonsos tasted exactly like the ones we ate at my grandparents\' place in Pune. The box arrived the day after dispatch, every mango wrapped and not a single bruise. My kids finished half of it before dinner.',
    author: 'Priya S., Auckland',
    ratingTenths: 50,
    image: 'avatar-1.svg',
  },
  {
    content:
      'I pre-ordered Dasheri months ahead and honestly forgot about it until the email said my box was on its way. Two days later it was at my door in Karori. Sweet, fragrant and worth the wait.',
    author: 'Rohan M., Wellington',
    ratingTenths: 50,
    image: 'avatar-2.svg',
  },
  {
    content:
      'Sent the Alphonso Gift Box to my mum in Christchurch for Mother\'s Day. It looked beautiful, and she rang me the moment she opened it. Your ripening tips in the Mango Season Guide were really helpful too.',
    author: 'Anjali K., Hamilton',
    ratingTenths: 50,
    image: 'avatar-3.svg',
  },
  {
    content:
      'We live rurally out past Te Puke, so I expected a long wait, but the Kesar mangoes came in two days and were perfect after a few days on the bench. Lovely to know they are organic as well.',
    author: 'Sarah T., Tauranga',
    ratingTenths: 45,
    image: null,
  },
  {
    content:
      'Great packaging and quick replies when I had a question about my delivery. The Banganapalli were firm on arrival and ripened beautifully. Would love to see a few more varieties in stock later in the season.',
    author: 'David L., Dunedin',
    ratingTenths: 40,
    image: null,
  },
  {
    content:
      'Made aamras with the Pairi box for Sunday lunch with the whole whānau. Juicy, sweet with just the right tang, and the flat shipping made it easy to order for the family.',
    author: 'Meera P., Palmerston North',
    ratingTenths: 45,
    image: null,
  },
];

export interface BannerSeed {
  title: string;
  image: string;
}

export const farmGallery: BannerSeed[] = [
  { title: 'Family Orchards of Ratnagiri and Gir', image: 'orchard.svg' },
  { title: 'Hand-Picked at Peak Maturity', image: 'harvest.svg' },
  { title: 'Graded and Packed with Care', image: 'packing.svg' },
  { title: 'Delivered Fresh Across New Zealand', image: 'delivery.svg' },
];

export interface ContentPageSeed {
  slug: string;
  title: string;
  file: string;
}

export const contentPages: ContentPageSeed[] = [
  { slug: 'about-us', title: 'About Us', file: 'about-us.md' },
  { slug: 'contact', title: 'Contact Us', file: 'contact.md' },
  { slug: 'shipping-policy', title: 'Shipping Policy', file: 'shipping-policy.md' },
  { slug: 'refund-policy', title: 'Refund Policy', file: 'refund-policy.md' },
  { slug: 'terms-conditions', title: 'Terms & Conditions', file: 'terms-conditions.md' },
  { slug: 'privacy-policy', title: 'Privacy Policy', file: 'privacy-policy.md' },
  { slug: 'mango-season-guide', title: 'Mango Season Guide', file: 'mango-season-guide.md' },
  { slug: 'test-content', title: 'Test Content', file: 'test-content.md' },
];
