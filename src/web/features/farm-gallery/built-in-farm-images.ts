import type { Banner } from '../../../contracts/content';

/** The farm SVGs are all drawn 1200 x 675. */
const farmPicture = (url: string) => ({ url, width: 1200, height: 675, widths: [] });

/** Spec 7: the gallery shown when the farm_gallery banners cannot be loaded or there are none. */
export const builtInFarmImages: Banner[] = [
  { id: -1, imageUrl: '/images/farm/orchard.svg', title: 'Our Partner Orchards at Sunrise', image: farmPicture('/images/farm/orchard.svg') },
  { id: -2, imageUrl: '/images/farm/harvest.svg', title: 'Picked by Hand at Peak Ripeness', image: farmPicture('/images/farm/harvest.svg') },
  { id: -3, imageUrl: '/images/farm/packing.svg', title: 'Sorted and Packed with Care', image: farmPicture('/images/farm/packing.svg') },
  { id: -4, imageUrl: '/images/farm/delivery.svg', title: 'On Its Way to Your Door', image: farmPicture('/images/farm/delivery.svg') },
];
