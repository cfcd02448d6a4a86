import { type ClaimStatus, claimStatusLabels } from '../../../contracts/claims';

const tones: Record<ClaimStatus, string> = {
  new: 'bg-mango-50 text-mango-700 ring-mango-600/40',
  in_review: 'bg-white text-leaf-700 ring-leaf-700/40',
  approved: 'bg-leaf-700 text-white ring-leaf-700',
  declined: 'bg-white text-danger-600 ring-danger-600/40',
};

export function ClaimStatusBadge({ status }: { status: ClaimStatus }) {
  return <span className={`inline-block rounded-full px-3 py-0.5 text-sm font-semibold ring-1 ${tones[status]}`}>{claimStatusLabels[status]}</span>;
}
