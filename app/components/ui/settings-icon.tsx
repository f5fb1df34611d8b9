/**
 * Lucide's "settings-2" drawn as one path with the stroke set by the `.line-icon` class (app.css):
 * a row's Configure button repeats it on every row of a list, where lucide-react's 9 presentation
 * attributes and 4 child elements per icon were a good part of the server's render time.
 */
export function SettingsIcon() {
  return (
    <svg viewBox="0 0 24 24" className="line-icon h-4 w-4" aria-hidden="true">
      <path d="M14 17H5M19 7h-9M20 17a3 3 0 1 1-6 0a3 3 0 1 1 6 0M10 7a3 3 0 1 1-6 0a3 3 0 1 1 6 0" />
    </svg>
  );
}
