import type { Banner } from '../../../contracts/content';

/** Spec 7: the gallery shown when the farm_gallery banners cannot be loaded or there are none. */
export const builtInFarmImages: Banner[] = [
  { id: -1, imageUrl: '/images/farm/orchard.svg', title: 'Our Partner Orchards at Sunrise' },
  { id: -2, imageUrl: '/images/farm/harvest.svg', title: 'Picked by Hand at Peak Ripeness' },
  { id: -3, imageUrl: '/images/farm/packing.svg', title: 'Sorted and Packed with Care' },
  { id: -4, imageUrl: '/images/farm/delivery.svg', title: 'On Its Way to Your Door' },
];
