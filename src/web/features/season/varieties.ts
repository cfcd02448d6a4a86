import type { Variety } from './season-calendar';

/** Spec 3: the 21 varieties built into the client, with their peak months exactly as listed. */
export const varieties: readonly Variety[] = [
  { name: 'Alphonso', peakMonths: ['Apr', 'May', 'Jun'] },
  { name: 'Kesar', peakMonths: ['May', 'Jun', 'Jul'] },
  { name: 'Banganapalli', peakMonths: ['Apr', 'May', 'Jun'] },
  { name: 'Dasheri', peakMonths: ['Jun', 'Jul'] },
  { name: 'Langra', peakMonths: ['Jun', 'Jul'] },
  { name: 'Chausa', peakMonths: ['Jul', 'Aug'] },
  { name: 'Himsagar', peakMonths: ['May', 'Jun'] },
  { name: 'Malda', peakMonths: ['Jun', 'Jul'] },
  { name: 'Totapuri', peakMonths: ['May', 'Jun', 'Jul'] },
  { name: 'Neelam', peakMonths: ['Jun', 'Jul'] },
  { name: 'Mallika', peakMonths: ['May', 'Jun', 'Jul'] },
  { name: 'Mulgoba', peakMonths: ['Jun'] },
  { name: 'Amrapali', peakMonths: ['Jun', 'Jul'] },
  { name: 'Kilichundan', peakMonths: ['May', 'Jun'] },
  { name: 'Pairi', peakMonths: ['Jun', 'Jul'] },
  { name: 'Sindoora', peakMonths: ['Jun', 'Jul'] },
  { name: 'Ratnapuri', peakMonths: ['May', 'Jun'] },
  { name: 'Himayat', peakMonths: ['May', 'Jun'] },
  { name: 'Tella Gulabelu', peakMonths: ['May', 'Jun'] },
  { name: 'Avakai', peakMonths: ['Apr', 'May', 'Jun'] },
  { name: 'Sonpari', peakMonths: ['Jun', 'Jul'] },
];
