import type { Testimonial } from '../../../contracts/content';

/** Spec 3: the three testimonials shown when the server has none or cannot be reached. */
export const fallbackTestimonials: Testimonial[] = [
  {
    id: -1,
    content: 'Our first box of Alphonsos arrived perfectly ripe and smelling like summer. The whole family was hooked after one slice.',
    author: 'Kavita R., Auckland',
    rating: 5,
    imageUrl: null,
    image: null,
  },
  {
    id: -2,
    content: 'Flat shipping to Nelson and the box was here in two days. Every mango was wrapped and not one was bruised.',
    author: 'James W., Nelson',
    rating: 4.5,
    imageUrl: null,
    image: null,
  },
  {
    id: -3,
    content: 'The Kesar mangoes took me straight back to holidays in Gujarat. Already planning my pre-order for next season.',
    author: 'Nisha P., Christchurch',
    rating: 5,
    imageUrl: null,
    image: null,
  },
];
