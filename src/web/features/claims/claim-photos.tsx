/** A claim's photos as small squares; each opens full size in a new tab. */
export function ClaimPhotos({ urls, size = 'size-20' }: { urls: string[]; size?: string }) {
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Photos">
      {urls.map((url, index) => (
        <li key={url}>
          <a href={url} target="_blank" rel="noreferrer" className="block overflow-hidden rounded-lg ring-1 ring-ink-500/20 hover:ring-mango-600">
            <img src={url} alt={`Photo ${index + 1}`} className={`${size} object-cover`} loading="lazy" />
          </a>
        </li>
      ))}
    </ul>
  );
}
